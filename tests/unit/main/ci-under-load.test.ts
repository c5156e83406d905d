import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { REPO_ROOT } from '../../helpers/processes'
import { waitFor } from '../../helpers/wait'

interface CiUnderLoadModule {
  parseArguments(argv: string[]): { runs: number; hogs: number; command: string[] }
  closingLine(output: string): string
}

const SCRIPT = join(REPO_ROOT, 'scripts', 'ci-under-load.mjs')
const { parseArguments, closingLine } = (await import(
  pathToFileURL(SCRIPT).href
)) as CiUnderLoadModule

/** Running, not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** The script in a folder of its own (its logs go to test-results/ there). */
function start(args: string[]) {
  const folder = mkdtempSync(join(tmpdir(), 'agent-teams-ci-under-load-'))
  onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
  const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: folder })
  onTestFinished(() => void child.kill('SIGKILL'))
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
  const hogs = async (): Promise<number[]> => {
    await waitFor(
      () => /\(pids [\d, ]+\)/.test(output),
      () => `the hogs' pids (output: ${output})`,
    )
    return (/\(pids ([\d, ]+)\)/.exec(output)?.[1] ?? '').split(', ').map(Number)
  }
  return { child, folder, exited, hogs, output: () => output }
}

describe('scripts/ci-under-load.mjs', () => {
  it('reads its options, and the test command after --', () => {
    expect(parseArguments([])).toEqual({ runs: 3, hogs: 2, command: ['npm', 'test'] })
    expect(parseArguments(['--runs', '1', '--hogs', '4', '--', 'npx', 'vitest', 'run'])).toEqual({
      runs: 1,
      hogs: 4,
      command: ['npx', 'vitest', 'run'],
    })
    expect(() => parseArguments(['--runs', '0'])).toThrow(/--runs takes a whole number/)
    expect(() => parseArguments(['--fast'])).toThrow(/unknown option --fast/)
    expect(() => parseArguments(['--'])).toThrow(/nothing after --/)
  })

  it("finds a run's closing line: npm test's, else vitest's count, else the last line", () => {
    expect(closingLine('=== lint\n1201 passed, 0 failed, 1 skipped\n\n')).toBe(
      '1201 passed, 0 failed, 1 skipped',
    )
    const vitest = '\u001b[2m      Tests \u001b[22m 12 passed (12)\n   Duration  4.2s\n'
    expect(closingLine(vitest)).toBe('Tests  12 passed (12)')
    expect(closingLine('first\nlast\n')).toBe('last')
    expect(closingLine('')).toBe('(no output)')
  })

  it('runs the command the times asked against hogs, prints each closing line, and ends the hogs', async () => {
    const run = start([
      '--runs',
      '2',
      '--hogs',
      '2',
      '--',
      process.execPath,
      '-e',
      "console.log('7 passed, 0 failed')",
    ])
    const hogs = await run.hogs()
    expect(hogs).toHaveLength(2)
    expect(await run.exited).toBe(0)
    const lines = run.output().split('\n')
    expect(lines.filter((line) => line.startsWith('run '))).toEqual([
      expect.stringMatching(/^run 1\/2: 7 passed, 0 failed \(exit 0, /),
      expect.stringMatching(/^run 2\/2: 7 passed, 0 failed \(exit 0, /),
    ])
    expect(run.output()).toContain('2 of 2 runs passed under load')
    expect(hogs.filter(isRunning)).toEqual([])
    expect(
      readFileSync(join(run.folder, 'test-results', 'ci-under-load', 'run-2.log'), 'utf8'),
    ).toBe('7 passed, 0 failed\n')
  })

  it('fails when a run fails, and says how it ended', async () => {
    const run = start([
      '--runs',
      '1',
      '--hogs',
      '0',
      '--',
      process.execPath,
      '-e',
      'process.exit(3)',
    ])
    expect(await run.exited).toBe(1)
    expect(run.output()).toMatch(/run 1\/1: \(no output\) \(exit 3, /)
    expect(run.output()).toContain('0 of 1 runs passed under load')
  })

  it('on SIGTERM ends the running command (its whole process group) and the hogs', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-teams-ci-under-load-child-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const pidFile = join(folder, 'grandchild.pid')
    const script = join(folder, 'slow-tests.sh')
    writeFileSync(script, `#!/bin/sh\nsleep 60 &\necho $! > '${pidFile}'\nwait\n`, {
      mode: 0o755,
    })
    const run = start(['--runs', '3', '--', script])
    const hogs = await run.hogs()
    await waitFor(
      () => readFileSync(pidFile, { encoding: 'utf8', flag: 'a+' }).trim().length > 0,
      () => 'the test command to start',
    )
    const grandchild = Number(readFileSync(pidFile, 'utf8'))
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(130)
    await waitFor(
      () => !isRunning(grandchild) && hogs.every((pid) => !isRunning(pid)),
      () => 'the command and the hogs to end',
    )
  })

  it('killed outright (SIGKILL, no handler runs), its hogs still end by themselves', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'agent-teams-ci-under-load-child-'))
    onTestFinished(() => rmSync(folder, { recursive: true, force: true }))
    const pidFile = join(folder, 'command.pid')
    // The command is left running by a SIGKILL: the test ends it itself.
    onTestFinished(() => {
      const pid = Number(readFileSync(pidFile, 'utf8'))
      if (isRunning(pid)) process.kill(pid, 'SIGKILL')
    })
    const run = start(['--runs', '1', '--', 'sh', '-c', `echo $$ > '${pidFile}'; exec sleep 60`])
    const hogs = await run.hogs()
    await waitFor(
      () => readFileSync(pidFile, { encoding: 'utf8', flag: 'a+' }).trim().length > 0,
      () => 'the test command to start',
    )
    expect(hogs.every(isRunning)).toBe(true)
    run.child.kill('SIGKILL')
    await run.exited
    await waitFor(
      () => hogs.every((pid) => !isRunning(pid)),
      () => `the hogs ${hogs.join(', ')} to notice their parent is gone`,
      { timeout: 10_000 },
    )
  })
})
