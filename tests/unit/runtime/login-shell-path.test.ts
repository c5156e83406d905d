import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  adoptLoginShellPath,
  mergePaths,
  parseLoginShellOutput,
  readLoginShellPath,
  shouldAskLoginShell,
} from '../../../src/runtime/system/login-shell-path'
import { waitFor } from '../../helpers/wait'

let directory: string

/** Running, not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'agent-teams-login-shell-'))
})
afterEach(() => rmSync(directory, { recursive: true, force: true }))

/**
 * A stand-in login shell: it greets (as rc files do), sets the PATH a user's profile would, and
 * runs the command it is given with `-ilc`, so what the app parses is a real shell's output.
 */
function fakeShell(body: string): string {
  const file = join(directory, 'fake-shell')
  writeFileSync(file, `#!/bin/sh\n[ "$1" = -ilc ] || exit 64\n${body}\n`, { mode: 0o755 })
  return file
}

const USER_PATH = '/opt/homebrew/bin:/home/ann/.nvm/versions/node/v24/bin:/usr/bin:/bin'
const greetingShell = (): string =>
  fakeShell(`echo 'Welcome back, ann'\nPATH='${USER_PATH}'\nexport PATH\nexec /bin/sh -c "$2"`)

describe('parsing and merging', () => {
  it('takes the PATH between the markers and ignores what rc files print around it', () => {
    const output = 'motd\n__AGENT_TEAMS_PATH_START__/a/bin:/usr/bin\n__AGENT_TEAMS_PATH_END__bye'
    expect(parseLoginShellOutput(output)).toBe('/a/bin:/usr/bin')
    expect(parseLoginShellOutput('no markers at all')).toBeNull()
    expect(parseLoginShellOutput('__AGENT_TEAMS_PATH_START__  __AGENT_TEAMS_PATH_END__')).toBeNull()
  })

  it("puts the login shell's entries first and keeps the app's own, without repeats", () => {
    expect(mergePaths('/opt/homebrew/bin:/usr/bin', '/usr/bin:/tmp/.mount_app')).toBe(
      '/opt/homebrew/bin:/usr/bin:/tmp/.mount_app',
    )
  })

  it('asks only outside a terminal, and never on Windows', () => {
    expect(shouldAskLoginShell('darwin', { PATH: '/usr/bin:/bin' })).toBe(true)
    expect(shouldAskLoginShell('linux', { TERM: '' })).toBe(true)
    expect(shouldAskLoginShell('linux', { TERM: 'xterm-256color' })).toBe(false)
    expect(shouldAskLoginShell('win32', {})).toBe(false)
  })
})

describe('asking a real (stand-in) login shell', () => {
  it("sets PATH to the login shell's, keeping the launcher's entries", async () => {
    const env: NodeJS.ProcessEnv = { SHELL: greetingShell(), PATH: '/usr/bin:/bin:/app/bin' }
    const result = await adoptLoginShellPath(env, { platform: 'darwin' })
    expect(result).toEqual({ ok: true, path: USER_PATH })
    expect(env.PATH).toBe(`${USER_PATH}:/app/bin`)
  })

  it('leaves PATH alone when started from a terminal', async () => {
    const env: NodeJS.ProcessEnv = { SHELL: greetingShell(), PATH: '/x', TERM: 'xterm' }
    expect(await adoptLoginShellPath(env, { platform: 'linux' })).toBeNull()
    expect(env.PATH).toBe('/x')
  })

  it('gives up after the timeout, kills the shell, and keeps PATH, saying why', async () => {
    const marker = join(directory, 'still-running')
    const pidFile = join(directory, 'shell.pid')
    const shell = fakeShell(`echo $$ > '${pidFile}'\nsleep 1 && touch '${marker}'`)
    const logged: string[] = []
    const env: NodeJS.ProcessEnv = { SHELL: shell, PATH: '/usr/bin:/bin' }
    const started = performance.now()
    const result = await adoptLoginShellPath(env, {
      platform: 'linux',
      timeoutMs: 300,
      log: (message) => logged.push(message),
    })
    expect(performance.now() - started).toBeLessThan(2000)
    expect(result).toEqual({ ok: false, reason: `${shell} did not answer within 300 ms` })
    expect(env.PATH).toBe('/usr/bin:/bin')
    expect(logged).toEqual([expect.stringContaining('keeps PATH=/usr/bin:/bin')])
    // Once the shell has ended, by the kill or by going on, the marker says which it was.
    const pid = Number(readFileSync(pidFile, 'utf8'))
    await waitFor(
      () => !isRunning(pid),
      () => `the shell (pid ${pid}) to end`,
      { timeout: 10_000 },
    )
    expect(existsSync(marker), 'the shell was killed before it could go on').toBe(false)
  })

  it("reads a real bash's login profile", async () => {
    writeFileSync(join(directory, '.bash_profile'), 'export PATH="/from/profile/bin:$PATH"\n')
    const env: NodeJS.ProcessEnv = { SHELL: '/bin/bash', HOME: directory, PATH: '/usr/bin:/bin' }
    const result = await adoptLoginShellPath(env, { platform: 'linux' })
    expect(result).toEqual({ ok: true, path: expect.stringMatching(/^\/from\/profile\/bin:/) })
    expect(env.PATH?.split(':')[0]).toBe('/from/profile/bin')
  })

  it('falls back when the shell fails or prints no PATH', async () => {
    const failing = await readLoginShellPath(fakeShell('echo broken rc >&2; exit 3'), {}, 2000)
    expect(failing).toEqual({ ok: false, reason: expect.stringContaining('(exit code 3)') })
    const missing = await readLoginShellPath(join(directory, 'no-such-shell'), {}, 2000)
    expect(missing).toEqual({ ok: false, reason: expect.stringContaining('ENOENT') })
  })
})
