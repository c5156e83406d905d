import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { buildMenuTemplate, RECENT_IN_MENU, type MenuOptions } from '../../../src/main/menu'
import type { MenuCommand } from '../../../src/shared/desktop'

function setup(change: Partial<Omit<MenuOptions, 'actions'>> = {}) {
  const sent: MenuCommand[] = []
  const calls: string[] = []
  const template = buildMenuTemplate({
    platform: 'linux',
    isPackaged: true,
    appName: 'Agent Teams',
    recent: ['/home/dana/stats', '/home/dana/web/app'],
    hasWorkspace: true,
    actions: {
      send: (command) => sent.push(command),
      newWindow: () => calls.push('new-window'),
      openDocumentation: () => calls.push('documentation'),
      showLogFile: () => calls.push('log'),
      showAbout: () => calls.push('about'),
    },
    ...change,
  })
  return { template, sent, calls }
}

function submenu(item: MenuItemConstructorOptions | undefined): MenuItemConstructorOptions[] {
  const items = item?.submenu
  if (!Array.isArray(items)) throw new Error(`${item?.label ?? '?'} has no submenu`)
  return items as MenuItemConstructorOptions[]
}

function top(template: MenuItemConstructorOptions[], label: string) {
  const found = template.find((item) => item.label?.replace('&', '') === label)
  if (found === undefined) throw new Error(`no ${label} menu`)
  return submenu(found)
}

function item(items: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions {
  const found = items.find((entry) => entry.label === label)
  if (found === undefined) throw new Error(`no item ${label}`)
  return found
}

function click(entry: MenuItemConstructorOptions): void {
  // The menu's handlers ignore their arguments; Electron passes the item, window and event.
  ;(entry.click as unknown as () => void)()
}

const roles = (items: MenuItemConstructorOptions[]) =>
  items.map((entry) => entry.role).filter((role) => role !== undefined)

describe('the application menu', () => {
  it('has File, Edit, View, Team and Help on Linux and Windows, no app menu', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const { template } = setup({ platform })
      expect(template.map((entry) => entry.label)).toEqual([
        '&File',
        '&Edit',
        '&View',
        '&Team',
        '&Help',
      ])
    }
  })

  it('puts the app menu role first on macOS, with About, Hide and Quit', () => {
    const { template, calls } = setup({ platform: 'darwin' })
    expect(template[0]?.role).toBe('appMenu')
    expect(template[0]?.label).toBe('Agent Teams')
    const app = submenu(template[0])
    expect(roles(app)).toEqual(expect.arrayContaining(['hide', 'quit']))
    click(item(app, 'About Agent Teams'))
    expect(calls).toEqual(['about'])
    // About lives in the app menu there, not twice.
    expect(top(template, 'Help').some((entry) => entry.label === 'About')).toBe(false)
  })

  it('has the standard edit roles, so copy and paste work in every field', () => {
    const { template } = setup()
    expect(roles(top(template, 'Edit'))).toEqual([
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'pasteAndMatchStyle',
      'delete',
      'selectAll',
    ])
  })

  it('has no Reload or developer tools in a packaged build, and has them in development', () => {
    const packaged = roles(top(setup({ isPackaged: true }).template, 'View'))
    expect(packaged).not.toContain('reload')
    expect(packaged).not.toContain('forceReload')
    expect(packaged).not.toContain('toggleDevTools')
    expect(packaged).toEqual(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'])
    const development = roles(top(setup({ isPackaged: false }).template, 'View'))
    expect(development).toEqual(expect.arrayContaining(['reload', 'forceReload', 'toggleDevTools']))
  })

  it('sends each window command through the contract', () => {
    const { template, sent } = setup()
    click(item(top(template, 'File'), 'Open Folder…'))
    click(item(top(template, 'File'), 'Close Folder'))
    click(item(top(template, 'View'), 'Toggle Roster'))
    click(item(top(template, 'View'), 'Toggle Activity'))
    click(item(top(template, 'View'), 'Toggle Timeline'))
    click(item(top(template, 'Team'), 'Spawn Teammate…'))
    click(item(top(template, 'Team'), 'Search the Team…'))
    click(item(top(template, 'Team'), 'Stop All'))
    click(item(top(template, 'Team'), 'Resume All'))
    click(item(top(template, 'Help'), 'Keyboard Shortcuts'))
    expect(sent.map((command) => command.kind)).toEqual([
      'open-folder',
      'close-folder',
      'toggle-roster',
      'toggle-activity',
      'toggle-timeline',
      'spawn-teammate',
      'search-team',
      'stop-all',
      'resume-all',
      'show-shortcuts',
    ])
  })

  it('opens a new window from File, in main', () => {
    const { template, sent, calls } = setup()
    const newWindow = item(top(template, 'File'), 'New Window')
    expect(newWindow.accelerator).toBe('CmdOrCtrl+Shift+N')
    click(newWindow)
    expect(calls).toEqual(['new-window'])
    expect(sent).toEqual([])
  })

  it('runs Help’s own actions in main', () => {
    const { template, calls } = setup()
    const help = top(template, 'Help')
    click(item(help, 'Documentation'))
    click(item(help, 'Show Log File'))
    click(item(help, 'About'))
    expect(calls).toEqual(['documentation', 'log', 'about'])
  })

  it('lists recent folders by name and path, and opens the one clicked', () => {
    const { template, sent } = setup()
    const recent = submenu(item(top(template, 'File'), 'Open Recent'))
    expect(recent.map((entry) => entry.label)).toEqual([
      'stats — /home/dana/stats',
      'app — /home/dana/web/app',
    ])
    click(recent[1] as MenuItemConstructorOptions)
    expect(sent).toEqual([{ kind: 'open-recent', path: '/home/dana/web/app' }])
  })

  it('says when there is no recent folder, and shows at most the newest ten', () => {
    const none = submenu(item(top(setup({ recent: [] }).template, 'File'), 'Open Recent'))
    expect(none).toEqual([{ label: 'No recent folders', enabled: false }])
    const many = Array.from({ length: 15 }, (_, index) => `/work/p${index}`)
    const listed = submenu(item(top(setup({ recent: many }).template, 'File'), 'Open Recent'))
    expect(listed).toHaveLength(RECENT_IN_MENU)
  })

  it('disables the team items while no folder is open', () => {
    const { template } = setup({ hasWorkspace: false })
    expect(item(top(template, 'File'), 'Close Folder').enabled).toBe(false)
    for (const label of ['Spawn Teammate…', 'Search the Team…', 'Stop All', 'Resume All'])
      expect(item(top(template, 'Team'), label).enabled).toBe(false)
    expect(item(top(template, 'View'), 'Toggle Roster').enabled).toBe(false)
    expect(item(top(template, 'File'), 'Open Folder…').enabled).not.toBe(false)
  })

  it('leaves the keys the page already handles to the page', () => {
    const { template } = setup()
    const spawn = item(top(template, 'Team'), 'Spawn Teammate…')
    expect(spawn.accelerator).toBe('CmdOrCtrl+N')
    expect(spawn.registerAccelerator).toBe(false)
    const search = item(top(template, 'Team'), 'Search the Team…')
    expect(search.accelerator).toBe('CmdOrCtrl+Shift+F')
    expect(search.registerAccelerator).toBe(false)
    // Stop All has no key of its own: nothing to leave to the page.
    expect(item(top(template, 'Team'), 'Stop All').accelerator).toBeUndefined()
  })
})
