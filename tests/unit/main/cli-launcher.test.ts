import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HELP } from '../../../src/cli/main'
import { REPO_ROOT } from '../../helpers/processes'

interface BuildScript {
  buildCli(options: { outDirectory: string }): Promise<boolean>
}

/**
 * The installed app's layout on Linux (/opt/Agent Teams), in a temp folder: the executable,
 * resources/bin (the launcher and its entry, as electron-builder.yml's extraResources put them)
 * and the CLI bundle in app.asar.unpacked (asarUnpack). In place of Electron, a stand-in that
 * refuses to run unless ELECTRON_RUN_AS_NODE=1 and is then plain Node 24, as Electron is.
 */
let root: string
let appDirectory: string
let onPath: string

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agent-teams-installed-'))
  appDirectory = join(root, 'opt', 'Agent Teams')
  const resources = join(appDirectory, 'resources')
  const { buildCli } = (await import(
    pathToFileURL(join(REPO_ROOT, 'scripts', 'build-cli.mjs')).href
  )) as BuildScript
  expect(await buildCli({ outDirectory: join(resources, 'app.asar.unpacked', 'out', 'cli') })).toBe(
    true,
  )
  mkdirSync(join(resources, 'bin'))
  for (const file of ['agent-teams', 'cli.mjs'])
    copyFileSync(join(REPO_ROOT, 'resources', 'bin', file), join(resources, 'bin', file))
  writeFileSync(
    join(appDirectory, 'agent-teams'),
    `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "started as the GUI" >&2; exit 99; }\n` +
      `exec '${process.execPath}' "$@"\n`,
    { mode: 0o755 },
  )
  // As the deb's after-install script links it.
  mkdirSync(join(root, 'usr', 'bin'), { recursive: true })
  onPath = join(root, 'usr', 'bin', 'agent-teams')
  symlinkSync(join(resources, 'bin', 'agent-teams'), onPath)
}, 60_000)

afterAll(() => rmSync(root, { recursive: true, force: true }))

function run(command: string, args: string[]): ReturnType<typeof spawnSync> {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: root, XDG_CONFIG_HOME: root }
  return spawnSync(command, args, { env, encoding: 'utf8', timeout: 30_000 })
}

describe('the agent-teams launcher inside the app (resources/bin/agent-teams)', () => {
  it('runs the bundled CLI with the app executable as Node, through the PATH link', () => {
    const result = run(onPath, ['--help'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(String(result.stdout).trimEnd()).toBe(HELP.trimEnd())
  })

  it('passes the arguments through and returns the CLI exit code', () => {
    const result = run(onPath, ['no-such-command'])
    expect(result.status).not.toBe(0)
    expect(String(result.stderr)).toMatch(/no-such-command/)
  })

  it('says where it looked when the app executable is missing', () => {
    const moved = join(appDirectory, 'agent-teams')
    const aside = `${moved}.aside`
    copyFileSync(moved, aside)
    rmSync(moved)
    try {
      const result = run(onPath, ['--help'])
      expect(result.status).toBe(127)
      expect(String(result.stderr)).toContain(`${moved}; reinstall Agent Teams`)
    } finally {
      copyFileSync(aside, moved)
    }
  })
})
