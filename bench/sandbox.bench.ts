// The OS sandbox's cost per bash command: the median wall time of the real bash tool
// (createBashTool) running an ordinary command inside the sandbox, against the same tool with no
// sandbox, in the same run and interleaved, once the sandbox's proxies are up (the first
// command, which starts them, is reported apart). Three commands: `true`, a small `ls`/`cat`
// in a workspace of 300 files, and `true` in a workspace that is a git repository (the policy
// then binds `.git`, its protected parts and `objects/` onto themselves: sandbox/agent-policy.ts).
// Environment: BENCH_SANDBOX_RUNS (default 30 of each).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createBashTool } from '../src/runtime/tools/bash-tool'
import { BashSandbox, probeSandbox } from '../src/runtime/tools/bash-sandbox'
import type { Tool, ToolContext } from '../src/runtime/tools/types'
import {
  log,
  median,
  now,
  removeDirectory,
  round,
  row,
  tempDirectory,
  type BenchResult,
  type Row,
} from './lib/common'

const RUNS = Number(process.env.BENCH_SANDBOX_RUNS ?? 30)
const FILES = 300

const COMMANDS = [
  { label: '`true`', command: 'true', repository: false },
  {
    label: `\`ls\` and \`cat\`, ${FILES} files`,
    command: 'ls -lR src | wc -l && cat src/module-1.ts src/module-2.ts src/module-3.ts | wc -c',
    repository: false,
  },
  { label: '`true`, in a git repository', command: 'true', repository: true },
]

/** A workspace that is a git repository with one commit. */
function repositoryWorkspace(): string {
  const workspace = workspaceWithFiles()
  const git = (...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@localhost', ...args], {
      cwd: workspace,
      stdio: 'ignore',
    })
  }
  git('init', '-q')
  git('add', 'src')
  git('commit', '-qm', 'sources')
  return workspace
}

/** A workspace as an agent has it: sources, and the team's folder (read-only inside). */
function workspaceWithFiles(): string {
  const workspace = tempDirectory('sandbox')
  mkdirSync(join(workspace, 'src'))
  mkdirSync(join(workspace, '.team'))
  writeFileSync(join(workspace, '.team', 'config.json'), '{"team_name":"bench","members":[]}\n')
  for (let file = 1; file <= FILES; file++)
    writeFileSync(
      join(workspace, 'src', `module-${file}.ts`),
      `export const value${file} = ${file}\nexport function double${file}(n: number): number {\n  return n * 2\n}\n`,
    )
  return workspace
}

/** One command through the tool, in milliseconds; a failure ends the benchmark. */
async function timed(tool: Tool, command: string, context: ToolContext): Promise<number> {
  const start = now()
  const outcome = await tool.run({ command }, context)
  const elapsed = now() - start
  if (outcome.isError) throw new Error(`${command} failed: ${outcome.content}`)
  return elapsed
}

export async function run(): Promise<BenchResult> {
  const status = probeSandbox()
  if (!status.available) throw new Error(`no OS sandbox here: ${status.reason}`)
  const workspace = workspaceWithFiles()
  const repository = repositoryWorkspace()
  const sandbox = new BashSandbox()
  // A sandbox that finds none of its programs: the tool runs commands as it does where there is
  // no sandbox and no one to ask (HostOptions.sandboxHooks unset).
  const none = new BashSandbox({ platform: 'linux', path: '/nonexistent' })
  const sandboxed = createBashTool({ sandbox: { sandbox, allowedHosts: () => [] } })
  const unsandboxed = createBashTool({ sandbox: { sandbox: none } })
  const context: ToolContext = {
    workspace,
    agent: 'bench',
    signal: new AbortController().signal,
  }
  try {
    const firstMs = await timed(sandboxed, 'true', context)
    await timed(unsandboxed, 'true', context)
    log(`sandbox: the first sandboxed command (proxies starting) took ${round(firstMs)} ms`)
    const rows: Row[] = []
    const details: Record<string, unknown> = { firstSandboxedMs: round(firstMs), runs: RUNS }
    for (const { label, command, repository: inRepository } of COMMANDS) {
      const where = inRepository ? { ...context, workspace: repository } : context
      const inside: number[] = []
      const outside: number[] = []
      // Interleaved, so that a change in the machine's load weighs on both alike.
      for (let index = 0; index < RUNS; index++) {
        inside.push(await timed(sandboxed, command, where))
        outside.push(await timed(unsandboxed, command, where))
      }
      log(
        `sandbox: ${label}: ${round(median(inside))} ms inside, ${round(median(outside))} ms outside`,
      )
      details[label] = {
        sandboxedMs: inside.map((ms) => round(ms)),
        unsandboxedMs: outside.map((ms) => round(ms)),
      }
      rows.push(
        row({
          bench: 'sandbox',
          figure: 'sandboxed bash, per command',
          note: label,
          value: median(inside),
          unit: 'ms',
          reference: { label: 'unsandboxed bash, same command', value: median(outside) },
        }),
      )
    }
    return { name: 'sandbox', rows, details, notes: [] }
  } finally {
    await sandbox.close()
    await none.close()
    removeDirectory(workspace)
    removeDirectory(repository)
  }
}
