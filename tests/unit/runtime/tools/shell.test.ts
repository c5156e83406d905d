import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createBashTool } from '../../../../src/runtime/tools/basic-tools'
import {
  killProcessTree,
  resolveBashShell,
  type ShellLookup,
} from '../../../../src/runtime/tools/shell'
import type { ToolContext } from '../../../../src/runtime/tools/types'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

/** Running, not a zombie: a killed orphan may wait for its new parent to reap it. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

/** A Windows machine as the lookup sees it: its environment and the files that exist. */
function windows(env: NodeJS.ProcessEnv, files: readonly string[] = []): ShellLookup {
  const existing = new Set(files.map((file) => file.toLowerCase()))
  return { platform: 'win32', env, exists: (path) => existing.has(path.toLowerCase()) }
}

const gitForAllUsers = 'C:\\Program Files\\Git\\bin\\bash.exe'

describe('the shell the bash tool runs', () => {
  it('is /bin/bash on Linux and macOS', () => {
    for (const platform of ['linux', 'darwin'] as const)
      expect(resolveBashShell({ platform, env: {}, exists: () => false })).toEqual({
        ok: true,
        file: '/bin/bash',
      })
  })

  it("is Git for Windows' bash in Program Files", () => {
    const lookup = windows({ ProgramFiles: 'C:\\Program Files' }, [gitForAllUsers])
    expect(resolveBashShell(lookup)).toEqual({ ok: true, file: gitForAllUsers })
  })

  it('is found in a per-user install (LOCALAPPDATA)', () => {
    const bash = 'C:\\Users\\ann\\AppData\\Local\\Programs\\Git\\bin\\bash.exe'
    const lookup = windows(
      { ProgramFiles: 'C:\\Program Files', LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local' },
      [bash],
    )
    expect(resolveBashShell(lookup)).toEqual({ ok: true, file: bash })
  })

  it('is found through Git\\cmd on PATH (a custom install folder), any case of "Path"', () => {
    const lookup = windows({ Path: 'C:\\Windows\\System32;"D:\\Tools\\Git\\cmd"' }, [
      'D:\\Tools\\Git\\cmd\\git.exe',
      'D:\\Tools\\Git\\bin\\bash.exe',
    ])
    expect(resolveBashShell(lookup)).toEqual({ ok: true, file: 'D:\\Tools\\Git\\bin\\bash.exe' })
  })

  it("never takes System32's bash.exe (WSL's launcher) for Git's", () => {
    const lookup = windows({ PATH: 'C:\\WINDOWS\\system32' }, ['C:\\WINDOWS\\system32\\bash.exe'])
    const shell = resolveBashShell(lookup)
    expect(shell.ok).toBe(false)
  })

  it('says that the tool needs Git for Windows, and where it looked, when there is none', () => {
    const shell = resolveBashShell(windows({ ProgramFiles: 'C:\\Program Files' }))
    expect(shell).toEqual({ ok: false, reason: expect.stringContaining('needs Git for Windows') })
    if (!shell.ok) expect(shell.reason).toContain(gitForAllUsers)
  })
})

describe('the bash tool on another platform (injected)', () => {
  const context = (): ToolContext => ({
    workspace: tempWorkspace().dir,
    agent: 'alice',
    signal: new AbortController().signal,
  })

  it('returns an is_error result saying it needs Git for Windows, and runs nothing', async () => {
    const ctx = context()
    const tool = createBashTool({ resolveShell: () => resolveBashShell(windows({})) })
    const outcome = await tool.run({ command: 'touch ran' }, ctx)
    expect(outcome.isError).toBe(true)
    expect(outcome.content).toMatch(/needs Git for Windows/)
    expect(existsSync(`${ctx.workspace}/ran`)).toBe(false)
  })

  it('runs the command with the shell resolved', async () => {
    const tool = createBashTool({ resolveShell: () => ({ ok: true, file: '/bin/sh' }) })
    const outcome = await tool.run({ command: 'echo "$0"' }, context())
    expect(outcome).toEqual({ content: '/bin/sh\n', isError: false })
  })
})

describe('killing a command and what it started', () => {
  it('ends the process tree with taskkill /T on Windows (no process groups there)', () => {
    const ran: [string, readonly string[]][] = []
    killProcessTree(4242, 'win32', (file, args) => ran.push([file, args]))
    expect(ran).toEqual([['taskkill', ['/pid', '4242', '/T', '/F']]])
  })

  it('kills the whole process group on Linux', async () => {
    const group = spawn('/bin/sh', ['-c', 'sleep 100 & echo $!; sleep 100'], {
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    const background = await new Promise<number>((resolve) =>
      group.stdout.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
    )
    expect(isRunning(background)).toBe(true)
    killProcessTree(group.pid ?? 0, 'linux', () => {
      throw new Error('no program is run on Linux')
    })
    await waitFor(
      () => !isRunning(background),
      () => `sleep ${background} to be killed`,
    )
  })
})
