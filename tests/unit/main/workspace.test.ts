import { describe, expect, it } from 'vitest'
import { launchFolder, resolveWorkspace, workspaceAtStart } from '../../../src/main/workspace'

const argv = (...args: string[]): string[] => [
  '/usr/bin/electron',
  '/app/out/main/index.js',
  ...args,
]

describe('the --workspace argument', () => {
  it('takes the next argument, or the value after =, resolved against the folder it ran in', () => {
    expect(resolveWorkspace(argv('--workspace', 'team'), '/home/ada')).toBe('/home/ada/team')
    expect(resolveWorkspace(argv('--workspace=/srv/team'), '/home/ada')).toBe('/srv/team')
    expect(resolveWorkspace(argv('--flag', '--workspace', '../x'), '/home/ada')).toBe('/home/x')
  })

  it('is absent without the flag or without a value: the window then asks for a folder', () => {
    expect(resolveWorkspace(argv(), '/home/ada')).toBeUndefined()
    expect(resolveWorkspace(argv('--workspace'), '/home/ada')).toBeUndefined()
    expect(resolveWorkspace(argv('--workspace='), '/home/ada')).toBeUndefined()
    expect(resolveWorkspace(argv('--workspace', '--inspect'), '/home/ada')).toBeUndefined()
  })
})

describe('the folder a launch asks for', () => {
  it('a packaged app takes a plain folder argument, skipping Chromium’s flags', () => {
    const packaged = ['/opt/Agent Teams/agent-teams', '--no-sandbox', 'stats', '--enable-logging']
    expect(launchFolder(packaged, '/home/ada', true)).toBe('/home/ada/stats')
    expect(launchFolder(['/opt/agent-teams'], '/home/ada', true)).toBeUndefined()
  })

  it('in development the app path is not a folder to open; --workspace still is', () => {
    expect(launchFolder(argv('stats'), '/home/ada', false)).toBeUndefined()
    expect(launchFolder(argv('--workspace', 'stats'), '/home/ada', false)).toBe('/home/ada/stats')
  })

  it('at start: the launch’s folder, else the one open last time if it still exists', () => {
    const exists = (path: string) => path === '/home/ada/kept'
    expect(workspaceAtStart('/x', '/home/ada/kept', exists)).toBe('/x')
    expect(workspaceAtStart(undefined, '/home/ada/kept', exists)).toBe('/home/ada/kept')
    expect(workspaceAtStart(undefined, '/home/ada/deleted', exists)).toBeUndefined()
    expect(workspaceAtStart(undefined, null, exists)).toBeUndefined()
  })
})
