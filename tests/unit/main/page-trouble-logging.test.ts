import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  aboutDetail,
  archivedName,
  rotateLogFile,
  routeConsole,
  type LevelWriter,
} from '../../../src/main/logging'
import { troublePrompt } from '../../../src/main/page-trouble'

describe('a crashed or hung page', () => {
  it('a crash offers Reload first', () => {
    const prompt = troublePrompt({ kind: 'gone', reason: 'crashed', exitCode: 139 })
    expect(prompt?.buttons[prompt.reload]).toBe('Reload')
    expect(prompt?.defaultId).toBe(prompt?.reload)
    expect(prompt?.detail).toContain('crashed, exit code 139')
  })

  it('a hung page offers Reload, and waiting by default', () => {
    const prompt = troublePrompt({ kind: 'unresponsive' })
    expect(prompt?.buttons).toEqual(['Reload', 'Wait'])
    expect(prompt?.defaultId).toBe(1)
    expect(prompt?.cancelId).toBe(1)
  })

  it('a clean exit asks nothing', () => {
    expect(troublePrompt({ kind: 'gone', reason: 'clean-exit', exitCode: 0 })).toBeNull()
  })
})

function recorder(): LevelWriter & { lines: string[] } {
  const lines: string[] = []
  const write =
    (level: string) =>
    (...parts: unknown[]) =>
      lines.push(`${level} ${parts.join(' ')}`)
  return {
    lines,
    error: write('error'),
    warn: write('warn'),
    info: write('info'),
    log: write('log'),
  }
}

describe('logging', () => {
  it('routes console.error and warn to the logger, and puts the console back', () => {
    const target = recorder()
    const original = target.warn
    const logger = recorder()
    const route = routeConsole(target, logger)
    target.warn('[ipc] refused', 'getInfo')
    target.error('boom')
    expect(logger.lines).toEqual(['warn [ipc] refused getInfo', 'error boom'])
    expect(target.lines).toEqual([])
    route.dispose()
    expect(target.warn).toBe(original)
  })

  let folder: string | undefined
  afterEach(() => {
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
  })

  it('rotates main.log to main.1.log, shifts older files and drops the oldest', () => {
    folder = mkdtempSync(join(tmpdir(), 'agent-teams-logs-'))
    const log = join(folder, 'main.log')
    expect(archivedName(log, 2)).toBe(join(folder, 'main.2.log'))
    for (let round = 1; round <= 5; round++) {
      writeFileSync(log, `round ${round}\n`)
      rotateLogFile(log, 3)
    }
    expect(existsSync(log)).toBe(false)
    expect(readFileSync(join(folder, 'main.1.log'), 'utf8')).toBe('round 5\n')
    expect(readFileSync(join(folder, 'main.3.log'), 'utf8')).toBe('round 3\n')
    expect(existsSync(join(folder, 'main.4.log'))).toBe(false)
  })

  it('the About text names the versions and the log file', () => {
    const text = aboutDetail({
      name: 'Agent Teams',
      version: '0.1.0',
      electron: '45.5.0',
      chrome: '142.0',
      node: '24.1.0',
      logFile: '/home/dana/.config/agent-teams/logs/main.log',
    })
    expect(text).toContain('Version 0.1.0')
    expect(text).toContain('Log file: /home/dana/.config/agent-teams/logs/main.log')
  })
})
