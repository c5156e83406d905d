import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync } from 'node:fs'
import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

/** The folders one smoke run works in, all under one temporary root. */
export interface SmokeFolders {
  readonly root: string
  readonly workspace: string
  /** XDG_CONFIG_HOME: the config folder main shares with the CLI, and Electron's appData. */
  readonly config: string
  /** Electron's userData on Linux in development: appData/<package.json name>. */
  readonly userData: string
  /** Where the stand-in login shell writes the arguments it was started with. */
  readonly loginShellArgs: string
}

export function makeSmokeFolders(prefix: string): SmokeFolders {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  const folders = {
    root,
    workspace: join(root, 'workspace'),
    config: join(root, 'config'),
    userData: join(root, 'config', 'agent-teams'),
    loginShellArgs: join(root, 'login-shell.args'),
  }
  for (const folder of [folders.workspace, folders.userData, join(root, 'tmp')])
    mkdirSync(folder, { recursive: true })
  return folders
}

/**
 * The person's login shell, as a dock or desktop launcher start finds it: its rc files add
 * `extraPath` in front of PATH (as nvm or Homebrew do), and it records how main started it.
 */
function writeLoginShell(folders: SmokeFolders, extraPath: readonly string[]): string {
  const shell = join(folders.root, 'login-shell')
  writeFileSync(
    shell,
    [
      '#!/bin/sh',
      `printf '%s\\n' "$@" > '${folders.loginShellArgs}'`,
      `PATH='${extraPath.join(delimiter)}'${delimiter}"$PATH"`,
      'export PATH',
      // main asks with `-ilc <script>`: the script is the last argument.
      'for last; do :; done',
      'exec /bin/sh -c "$last"',
      '',
    ].join('\n'),
  )
  chmodSync(shell, 0o755)
  return shell
}

/**
 * The environment of an app started from a desktop launcher: no TERM (so main asks the login
 * shell for PATH, as a real launch does), SHELL the stand-in login shell, no key, no dev server;
 * config, userData and the demo's temp folder inside the smoke root.
 */
export function launcherEnvironment(
  folders: SmokeFolders,
  loginPath: readonly string[],
  extra: NodeJS.ProcessEnv = {},
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra }
  for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'ELECTRON_RENDERER_URL', 'TERM'])
    delete env[name]
  env.SHELL = writeLoginShell(folders, loginPath)
  env.XDG_CONFIG_HOME = folders.config
  env.TMPDIR = join(folders.root, 'tmp') // the offline demo makes its folder here
  return env
}

/**
 * A `node` that stands for a long command: it sleeps for a duration no other process on the
 * machine uses, so that its processes can be found from outside whatever PID namespace the
 * agents' bash runs in (inside one, `$$` is 1 and says nothing to the test).
 */
export function longRunningNode(folders: SmokeFolders): { bin: string; token: string } {
  const bin = join(folders.root, 'bin')
  mkdirSync(bin)
  const token = `${3000 + Math.floor(Math.random() * 1000)}.${process.pid}`
  writeFileSync(join(bin, 'node'), `#!/bin/sh\nexec sleep ${token}\n`)
  chmodSync(join(bin, 'node'), 0o755)
  return { bin, token }
}

/** The pids, as this process sees them, of every `sleep <token>` running now. */
export function sleeperPids(token: string): number[] {
  const pids: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const command = readFileSync(join('/proc', entry, 'cmdline'), 'utf8').split('\0')
      if (command[0]?.endsWith('sleep') === true && command[1] === token) pids.push(Number(entry))
    } catch {
      // Gone between the listing and the read.
    }
  }
  return pids
}
