import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HELP } from '../../../src/cli/main'
import { REPO_ROOT } from '../../helpers/processes'

interface BuildScript {
  buildCli(options: { outDirectory: string }): Promise<boolean>
}

let root: string
let bundle: string

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'agent-teams-installed-'))
  bundle = join(root, 'bundle')
  const { buildCli } = (await import(
    pathToFileURL(join(REPO_ROOT, 'scripts', 'build-cli.mjs')).href
  )) as BuildScript
  expect(await buildCli({ outDirectory: bundle })).toBe(true)
}, 60_000)

afterAll(() => rmSync(root, { recursive: true, force: true }))

/**
 * An installed app's layout in a temp folder: `resources/bin` as electron-builder.yml's
 * extraResources puts it, the CLI bundle in `resources/app.asar.unpacked` (asarUnpack), and
 * in place of Electron a stand-in that refuses to run unless ELECTRON_RUN_AS_NODE=1 and is
 * then plain Node 24, as Electron is. Returns the launcher's path.
 */
function install(resources: string, executable: string): string {
  cpSync(bundle, join(resources, 'app.asar.unpacked', 'out', 'cli'), { recursive: true })
  mkdirSync(join(resources, 'bin'))
  for (const file of ['agent-teams', 'cli.mjs'])
    copyFileSync(join(REPO_ROOT, 'resources', 'bin', file), join(resources, 'bin', file))
  mkdirSync(dirname(executable), { recursive: true })
  writeFileSync(
    executable,
    `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "started as the GUI" >&2; exit 99; }\n` +
      `exec '${process.execPath}' "$@"\n`,
    { mode: 0o755 },
  )
  return join(resources, 'bin', 'agent-teams')
}

function run(command: string, args: string[], path = process.env.PATH) {
  const env: NodeJS.ProcessEnv = { PATH: path, HOME: root, XDG_CONFIG_HOME: root }
  return spawnSync(command, args, { env, encoding: 'utf8', timeout: 30_000 })
}

describe('the agent-teams launcher inside the Linux app (/opt/Agent Teams)', () => {
  let appDirectory: string
  let onPath: string

  beforeAll(() => {
    appDirectory = join(root, 'opt', 'Agent Teams')
    const launcher = install(join(appDirectory, 'resources'), join(appDirectory, 'agent-teams'))
    // As the deb's after-install script links it.
    onPath = join(root, 'usr', 'bin', 'agent-teams')
    mkdirSync(dirname(onPath), { recursive: true })
    symlinkSync(launcher, onPath)
  })

  it('runs the bundled CLI with the app executable as Node, through the PATH link', () => {
    const result = run(onPath, ['--help'])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout.trimEnd()).toBe(HELP.trimEnd())
  })

  it('passes the arguments through and returns the CLI exit code', () => {
    const result = run(onPath, ['no-such-command'])
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/no-such-command/)
  })

  it('says where it looked when the app executable is missing', () => {
    const executable = join(appDirectory, 'agent-teams')
    renameSync(executable, `${executable}.aside`)
    try {
      const result = run(onPath, ['--help'])
      expect(result.status).toBe(127)
      expect(result.stderr).toContain(`${executable}; reinstall Agent Teams`)
    } finally {
      renameSync(`${executable}.aside`, executable)
    }
  })
})

describe('the agent-teams launcher inside the macOS app bundle', () => {
  it('finds Contents/MacOS/Agent Teams when uname says Darwin', () => {
    const contents = join(root, 'Applications', 'Agent Teams.app', 'Contents')
    const launcher = install(join(contents, 'Resources'), join(contents, 'MacOS', 'Agent Teams'))
    // macOS, as far as the launcher can tell: its `uname -s` answers Darwin.
    const fakeBin = join(root, 'darwin-bin')
    mkdirSync(fakeBin)
    writeFileSync(join(fakeBin, 'uname'), '#!/bin/sh\necho Darwin\n', { mode: 0o755 })
    const result = run(launcher, ['--help'], `${fakeBin}:${process.env.PATH ?? ''}`)
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout.trimEnd()).toBe(HELP.trimEnd())
  })
})
