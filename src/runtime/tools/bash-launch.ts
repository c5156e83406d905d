import { spawnSync } from 'node:child_process'

/** How a command is started: the program, its arguments, and what that isolation covers. */
export interface BashLaunch {
  readonly file: string
  readonly args: readonly string[]
  /**
   * 'pid-namespace': bash is PID 1 of its own PID namespace, with its own /proc: when it exits or
   * is killed, the kernel kills everything it started, `setsid -f` and daemons included, and no
   * process outside (the runtime, whose environment holds the API key) is visible in /proc.
   * 'launcher': bash's parent is a small shell started with the clean environment, so
   * /proc/$PPID/environ holds no key; a `setsid -f` child can outlive the call.
   * 'direct': another bash (Windows) started as it is; there is no /proc to read the key from.
   * 'sandbox': the OS sandbox (bash-sandbox.ts): bubblewrap's own PID, mount and network
   * namespaces on Linux, Seatbelt on macOS, with the folders and hosts of its policy.
   */
  readonly isolation: 'pid-namespace' | 'launcher' | 'direct' | 'sandbox'
}

const BASH = '/bin/bash'

/**
 * util-linux's unshare: a new PID namespace (with its own /proc mounted, which needs a mount
 * namespace) whose first process is bash; --kill-child kills it if unshare itself is killed
 * (a timeout, Stop). Without root, a user namespace grants the right to make them.
 */
function unshareArgs(): string[] {
  const asRoot = process.getuid?.() === 0
  return [
    ...(asRoot ? [] : ['--user', '--map-current-user']),
    '--pid',
    '--fork',
    '--mount-proc',
    '--kill-child',
  ]
}

let namespaces: boolean | undefined

/**
 * Whether PID namespaces can be made here: Linux with unshare, and a kernel that allows them to
 * this user (containers and some distributions forbid user namespaces). Probed once.
 */
export function pidNamespacesAvailable(): boolean {
  if (namespaces !== undefined) return namespaces
  if (process.platform !== 'linux') return (namespaces = false)
  const probe = spawnSync('unshare', [...unshareArgs(), '--', BASH, '-c', 'exit 0'], {
    stdio: 'ignore',
    timeout: 5000,
  })
  namespaces = probe.status === 0
  return namespaces
}

/**
 * The program and arguments that run `command` with bash, as isolated as this machine allows.
 * `shell` is another bash (Git for Windows' bash.exe, see shell.ts): started as it is, since
 * neither unshare nor /bin/sh exists there.
 */
export function bashLaunch(command: string, shell: string = BASH): BashLaunch {
  if (shell !== BASH) return { file: shell, args: ['-c', command], isolation: 'direct' }
  if (pidNamespacesAvailable())
    return {
      file: 'unshare',
      args: [...unshareArgs(), '--', BASH, '-c', command],
      isolation: 'pid-namespace',
    }
  // `sh` stays bash's parent (the `exit` after it keeps sh from exec'ing bash in its place), and
  // sh was started with the environment bash gets, without the app's key.
  return {
    file: '/bin/sh',
    args: ['-c', `${BASH} -c "$1"; exit $?`, 'agent-bash', command],
    isolation: 'launcher',
  }
}
