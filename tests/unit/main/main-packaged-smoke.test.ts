import { rmSync } from 'node:fs'
import { relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBuiltApp } from '../../helpers/built-app'
import { REPO_ROOT } from '../../helpers/processes'
import { MainProcess } from './electron-stand-in/main-process'
import {
  launcherEnvironment,
  makeSmokeFolders,
  type SmokeFolders,
} from './electron-stand-in/smoke-environment'

/**
 * The built main process as a packaged app runs it (the stand-in's app.isPackaged is true and
 * argv has no app path, as in an installed app): a folder given as a plain argument, the way a
 * file manager or `agent-teams ~/project` passes it, is opened; the menu has no developer items.
 */

interface MenuEntry {
  label: string
  role: string | null
  submenu: MenuEntry[] | null
}

let folders: SmokeFolders
let main: MainProcess

beforeAll(async () => {
  ensureBuiltApp()
  folders = makeSmokeFolders('agent-teams-packaged-smoke-')
  const env = launcherEnvironment(folders, [], { STAND_IN_PACKAGED: '1' })
  // Relative to the folder the app starts in, as a shell passes it.
  main = new MainProcess([relative(REPO_ROOT, folders.workspace)], env)
  await main.loaded
  await main.request('ready')
  await main.waitForCall('BrowserWindow.loadURL')
  // The window's folder opens after it is made; the tests ask about both.
  await main.waitForWorkspaceOpened()
  await main.caughtUp()
}, 240_000)

afterAll(() => {
  main.kill()
  rmSync(folders.root, { recursive: true, force: true })
})

describe('the built main process, packaged', () => {
  it('opens the folder given as a plain argument', async () => {
    const info = await main.request<{ ok: boolean; result: { workspace: string | null } }>(
      'invoke',
      { channel: 'command:getInfo', params: {}, senderUrl: 'app://agent-teams/index.html' },
    )
    expect(info).toMatchObject({ ok: true, result: { workspace: folders.workspace } })
  })

  it('has no Reload or developer tools in its menu', async () => {
    await main.waitForCall('Menu.setApplicationMenu')
    const menu = main.calls('Menu.setApplicationMenu').at(-1)?.args[0] as MenuEntry[]
    expect(menu.map((entry) => entry.label)).toEqual(['&File', '&Edit', '&View', '&Team', '&Help'])
    const roles = (entries: MenuEntry[]): (string | null)[] =>
      entries.flatMap((entry) => [entry.role, ...roles(entry.submenu ?? [])])
    const all = roles(menu)
    expect(all).toContain('togglefullscreen')
    expect(all).not.toContain('reload')
    expect(all).not.toContain('forceReload')
    expect(all).not.toContain('toggleDevTools')
    expect(main.problems).toEqual([])
  })
})
