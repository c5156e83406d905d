import { describe, expect, it } from 'vitest'
import { pidNamespacesAvailable } from '../../../../src/runtime/tools/bash-launch'
import { bashTool } from '../../../../src/runtime/tools/basic-tools'
import type { ToolContext } from '../../../../src/runtime/tools/types'
import { findProcess } from '../../../helpers/proc'
import { REPO_ROOT, run } from '../../../helpers/processes'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

/** Both namespace tests need unshare's PID namespaces; without them they say so and skip. */
const PID_NAMESPACES = pidNamespacesAvailable()
if (!PID_NAMESPACES)
  console.info(
    '[skipped] 2 bash isolation tests: unshare cannot make PID namespaces here, so bash runs through the plain launcher (no namespace hides other processes, and setsid -f escapes the process group)',
  )

function setup(): ToolContext {
  const { dir } = tempWorkspace('agent-teams-bash-isolation-')
  return { workspace: dir, agent: 'alice', signal: new AbortController().signal }
}

const PROBE = 'sk-ant-leak-probe-6d1f'

/**
 * Runs `command` with the bash tool in a runtime process started with the API key in its own
 * environment (as a user's shell would start the app): /proc/<pid>/environ shows a process's
 * environment as it started, so setting process.env inside a test would prove nothing.
 */
async function runInRuntimeWithKey(command: string, workspace: string): Promise<string> {
  const script = `
    const { bashTool } = await import(${JSON.stringify(`${REPO_ROOT}/src/runtime/tools/basic-tools.ts`)})
    const outcome = await bashTool.run({ command: process.argv[1] }, {
      workspace: ${JSON.stringify(workspace)}, agent: 'alice', signal: new AbortController().signal,
    })
    process.stdout.write(outcome.content)
    // The sandbox's proxies would otherwise hold the process until their idle stop.
    const { defaultBashSandbox } = await import(${JSON.stringify(`${REPO_ROOT}/src/runtime/tools/bash-sandbox.ts`)})
    await defaultBashSandbox.close()`
  const child = await run('env', [
    `ANTHROPIC_API_KEY=${PROBE}`,
    process.execPath,
    '--import',
    'tsx',
    '--input-type=module',
    '-e',
    script,
    command,
  ])
  expect(child.stderr).toBe('')
  return child.stdout
}

const countKey = (source: string): string =>
  `{ ${source} ; } 2>/dev/null | tr '\\0' '\\n' | grep -c ${PROBE} || true`

describe("bash's isolation from the runtime", () => {
  it("the key is not in bash's parent's environment (/proc/$PPID/environ)", async () => {
    const output = await runInRuntimeWithKey(
      `echo "own=$(${countKey('env')})"; echo "parent=$(${countKey('cat /proc/$PPID/environ')})"`,
      setup().workspace,
    )
    expect(output).toBe('own=0\nparent=0\n')
  }, 30_000)

  it.skipIf(!PID_NAMESPACES)(
    'in a PID namespace, no process with the key is visible at all',
    async () => {
      const output = await runInRuntimeWithKey(
        `echo "any=$(${countKey('cat /proc/[0-9]*/environ')})"`,
        setup().workspace,
      )
      expect(output).toBe('any=0\n')
    },
    30_000,
  )

  it.skipIf(!PID_NAMESPACES)(
    'a command started with setsid -f does not outlive the tool call',
    async () => {
      const marker = (200 + Math.random()).toFixed(9)
      const outcome = await bashTool.run(
        { command: `setsid -f sleep ${marker}; sleep 0.3; echo started` },
        setup(),
      )
      expect(outcome).toEqual({ content: 'started\n', isError: false })
      await waitFor(
        () => findProcess(marker) === null,
        () => `sleep ${marker} (started with setsid -f) to be gone`,
      )
    },
  )

  it('a setsid -f command is running while the call runs (the probe above sees real processes)', async () => {
    const marker = (300 + Math.random()).toFixed(9)
    const running = bashTool.run({ command: `setsid -f sleep ${marker}; sleep 2` }, setup())
    // Sandboxed: the first command starts the sandbox's proxies, slow on a loaded machine.
    await waitFor(() => findProcess(marker) !== null, undefined, { timeout: 20_000 })
    await running
  })
})
