import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { isProcessAlive } from '../../../../src/runtime/fs/processes'
import { bashTool, createBashTool } from '../../../../src/runtime/tools/basic-tools'
import { refusedCommandReason, runBash } from '../../../../src/runtime/tools/bash'
import type { ToolContext } from '../../../../src/runtime/tools/types'
import { findProcess } from '../../../helpers/proc'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

function setup(signal = new AbortController().signal): { dir: string; context: ToolContext } {
  const { dir } = tempWorkspace('agent-teams-bash-')
  return { dir, context: { workspace: dir, agent: 'alice', signal } }
}

/** Running, not a zombie: a killed orphan may wait a moment for its new parent to reap it. */
function isRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

async function grandchildPid(marker: string): Promise<number> {
  await waitFor(() => findProcess(marker) !== null)
  return findProcess(marker) ?? 0
}

/** A `sleep` argument no other process has: how the grandchild is found. */
function uniqueSleep(): string {
  return (100 + Math.random()).toFixed(9)
}

/** Starts a background `sleep` that would outlive bash, then waits for it. */
const sleepingGrandchild = (marker: string): string => `sleep ${marker} & wait`

describe('runBash', () => {
  it('runs in the workspace and captures stdout and stderr together', async () => {
    const { dir } = setup()
    // One stream only per command: the order of two pipes read at once is not defined.
    expect((await runBash('pwd -P', { cwd: dir })).output).toBe(`${realpathSync(dir)}\n`)
    const result = await runBash('echo problem >&2', { cwd: dir })
    expect(result).toEqual({
      output: 'problem\n',
      exitCode: 0,
      signal: null,
      timedOut: false,
      aborted: false,
      truncated: false,
    })
  })

  it('keeps the start of a long output and drops the rest with a note', async () => {
    const { dir } = setup()
    const result = await runBash("head -c 200000 /dev/zero | tr '\\0' a", {
      cwd: dir,
      maxOutputCharacters: 1000,
    })
    expect(result.truncated).toBe(true)
    expect(result.output).toBe(`${'a'.repeat(1000)}\n[output truncated: 199000 characters dropped]`)
  })

  it('kills the whole process group on timeout, background grandchild included', async () => {
    const { dir } = setup()
    const marker = uniqueSleep()
    const running = runBash(sleepingGrandchild(marker), { cwd: dir, timeoutMs: 1500 })
    const pid = await grandchildPid(marker)
    expect(await running).toMatchObject({ timedOut: true, aborted: false, exitCode: null })
    await waitFor(
      () => !isRunning(pid),
      () => `grandchild ${pid} to die`,
    )
  })

  it('kills the whole process group when aborted', async () => {
    const { dir } = setup()
    const controller = new AbortController()
    const marker = uniqueSleep()
    const running = runBash(sleepingGrandchild(marker), { cwd: dir, signal: controller.signal })
    const pid = await grandchildPid(marker)
    expect(isRunning(pid)).toBe(true)
    controller.abort()
    expect(await running).toMatchObject({ aborted: true, timedOut: false })
    await waitFor(
      () => !isRunning(pid),
      () => `grandchild ${pid} to die`,
    )
  })

  it('does not start at all when already aborted', async () => {
    const { dir } = setup()
    const controller = new AbortController()
    controller.abort()
    const result = await runBash('touch ran', { cwd: dir, signal: controller.signal })
    expect(result.aborted).toBe(true)
    expect(existsSync(join(dir, 'ran'))).toBe(false)
  })

  it('ends when bash exits even if a background process holds the output open', async () => {
    const { dir } = setup()
    const marker = uniqueSleep()
    const running = runBash(`sleep ${marker} & sleep 0.5; echo started`, { cwd: dir })
    const pid = await grandchildPid(marker)
    expect(await running).toMatchObject({ output: 'started\n', exitCode: 0, timedOut: false })
    await waitFor(
      () => !isRunning(pid),
      () => `grandchild ${pid} to die`,
    )
  })
})

describe('the bash tool', () => {
  it('returns the output, or says there was none', async () => {
    const { context } = setup()
    expect(await bashTool.run({ command: 'echo hi' }, context)).toEqual({
      content: 'hi\n',
      isError: false,
    })
    expect(await bashTool.run({ command: 'true' }, context)).toEqual({
      content: '(no output)',
      isError: false,
    })
  })

  it('adds the exit code of a failed command, stderr included', async () => {
    const { context } = setup()
    expect(await bashTool.run({ command: 'echo oops >&2; exit 3' }, context)).toEqual({
      content: 'oops\n[exit code 3]',
      isError: true,
    })
  })

  it('caps the output at 50,000 characters', async () => {
    const { context } = setup()
    const command = "head -c 200000 /dev/zero | tr '\\0' a"
    const outcome = await bashTool.run({ command }, context)
    expect(outcome.isError).toBe(false)
    expect(outcome.content.length).toBeLessThan(50_100)
    expect(outcome.content).toContain('[output truncated: 150000 characters dropped]')
  })

  it('says when the command timed out or was stopped', async () => {
    const { context } = setup()
    const timed = await createBashTool({ timeoutMs: 300 }).run({ command: 'sleep 100' }, context)
    expect(timed).toEqual({
      content: '(no output)\n[timed out after 0.3 s; process group killed]',
      isError: true,
    })

    const controller = new AbortController()
    const { context: stoppable } = setup(controller.signal)
    const marker = uniqueSleep()
    const running = bashTool.run({ command: `echo working; sleep ${marker}` }, stoppable)
    // Stopped while the command runs (a stop before it starts takes another path).
    const sleeper = await grandchildPid(marker)
    controller.abort()
    const stopped = await running
    expect(stopped.isError).toBe(true)
    expect(stopped.content).toMatch(/^working\n[\s\S]*\[stopped\]$/)
    await waitFor(
      () => !isRunning(sleeper),
      () => 'the stopped command to end',
    )
  })

  it("hides the app's API key from commands", async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-test-not-a-real-key')
    onTestFinished(() => void vi.unstubAllEnvs())
    const { context } = setup()
    const outcome = await bashTool.run({ command: 'echo "key=${ANTHROPIC_API_KEY:-}"' }, context)
    expect(outcome.content).toBe('key=\n')
  })

  it('refuses a blocked command without running any of it', async () => {
    const { dir, context } = setup()
    const outcome = await bashTool.run({ command: 'touch ran && sudo true' }, context)
    expect(outcome.isError).toBe(true)
    expect(outcome.content).toContain('refused by the safety guard')
    expect(existsSync(join(dir, 'ran'))).toBe(false)
  })
})

describe('the command guard (a speed bump, not a boundary)', () => {
  it.each([
    'rm -rf /',
    'rm -r -f /',
    'rm -fr /*',
    'rm --recursive --force /',
    'rm --recur /',
    'rm -rf ~',
    'rm -rf ~/',
    'rm -rf $HOME',
    'rm -rf "$HOME"',
    'rm -rf ${HOME}/*',
    'rm -Rf /usr',
    'rm -rf //',
    'rm --no-preserve-root -rf /',
    '/bin/rm -rf /',
    'cd build && rm -rf /',
    'env FOO=1 rm -rf /',
    'echo "$(rm -rf /)"',
    'echo `rm -rf /`',
    'bash -c "rm -rf /"',
    'mkfs /dev/sdb',
    'mkfs.ext4 /dev/sda1',
    'dd if=/dev/zero of=/dev/sda bs=1M',
    ':(){ :|:& };:',
    'shutdown -h now',
    'reboot',
    'sudo ls',
    'FOO=1 sudo make install',
  ])('refuses %s', (command) => {
    expect(refusedCommandReason(command)).not.toBeNull()
  })

  it.each([
    'rm -rf ./build',
    'rm -rf build/ dist',
    'rm -f /tmp/agent-teams-scratch.txt',
    'echo "rm -rf /"',
    "echo 'sudo reboot'",
    'grep -rn sudo .',
    'dd if=/dev/zero of=./disk.img bs=1k count=1',
    'ls / ~',
  ])('allows %s', (command) => {
    expect(refusedCommandReason(command)).toBeNull()
  })
})
