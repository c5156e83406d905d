import { execFile } from 'node:child_process'
import { TeamError } from '../../shared/errors'
import { boxed } from './git-box'
import { gitEnvironment } from './hardening'

/**
 * Starting git: the hardened environment (hardening.ts), the C locale, output capped. Only the
 * hardened Git (git.ts) calls these, with every override already in `args`.
 */

/** What a git command printed and how it ended. */
export interface GitResult {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

export interface GitCallOptions {
  /** Variables for this call (GIT_INDEX_FILE, an author), on top of the hardened environment. */
  readonly env?: Readonly<Record<string, string>>
  readonly input?: string
  /**
   * A worktree's git folder and work tree as the app recorded them: git is pointed at them
   * (GIT_DIR, GIT_WORK_TREE) and never reads the worktree's `.git` file, which its teammate
   * could point elsewhere.
   */
  readonly repository?: { readonly gitDir: string; readonly workTree: string }
}

interface ExecuteOptions extends GitCallOptions {
  /** Reads the person's global configuration (only to pick its describing keys). */
  readonly readGlobal?: boolean
  /** Runs git in the box (git-box.ts) where only these folders are writable. */
  readonly box?: readonly string[]
}

/** Output larger than this is a bug or a hostile repository, not a diff anyone reads. */
const MAX_OUTPUT = 64 * 1024 * 1024

/** Runs git with the hardened environment; `args` must already hold every override. */
export function execute(
  cwd: string,
  args: readonly string[],
  options: ExecuteOptions = {},
): Promise<GitResult> {
  const env = gitEnvironment(process.env, {
    ...options.env,
    ...(options.repository === undefined
      ? {}
      : { GIT_DIR: options.repository.gitDir, GIT_WORK_TREE: options.repository.workTree }),
  })
  if (options.readGlobal === true) delete env.GIT_CONFIG_GLOBAL
  const command =
    options.box === undefined ? { file: 'git', args: [...args] } : boxed(cwd, args, options.box)
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      command.file,
      command.args,
      {
        cwd,
        env,
        encoding: 'utf8',
        maxBuffer: MAX_OUTPUT,
        windowsHide: true,
      },
      (error, stdout, stderr) => {
        if (error === null) {
          resolvePromise({ status: 0, stdout, stderr })
          return
        }
        const failure = error as Omit<NodeJS.ErrnoException, 'code'> & {
          code?: unknown
          signal?: NodeJS.Signals | null
        }
        if (failure.code === 'ENOENT') {
          reject(
            new TeamError(
              'io',
              'git is not installed (or not on PATH); install git to use worktrees.',
            ),
          )
          return
        }
        if (typeof failure.code === 'number' && failure.signal == null) {
          resolvePromise({ status: failure.code, stdout, stderr })
          return
        }
        if (failure.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') {
          reject(
            new TeamError(
              'io',
              `git ${args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? ''} printed more than ${MAX_OUTPUT / 1024 / 1024} MB.`,
            ),
          )
          return
        }
        reject(error)
      },
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
    else child.stdin?.end()
  })
}

/** `execute` with stdout kept as bytes. */
export function executeBytes(
  cwd: string,
  args: readonly string[],
  options: GitCallOptions & { readonly box?: readonly string[] },
): Promise<{ status: number; stdout: Buffer; stderr: string }> {
  const env = gitEnvironment(process.env, {
    ...options.env,
    ...(options.repository === undefined
      ? {}
      : { GIT_DIR: options.repository.gitDir, GIT_WORK_TREE: options.repository.workTree }),
  })
  const command =
    options.box === undefined ? { file: 'git', args: [...args] } : boxed(cwd, args, options.box)
  return new Promise((resolvePromise, reject) => {
    const child = execFile(
      command.file,
      command.args,
      { cwd, env, encoding: 'buffer', maxBuffer: MAX_OUTPUT, windowsHide: true },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : Number.NaN
        if (Number.isNaN(status)) {
          reject(
            new TeamError(
              'io',
              `git ${args.find((arg) => !arg.startsWith('-') && !arg.includes('=')) ?? ''} failed: ${error?.message ?? ''}`,
            ),
          )
          return
        }
        resolvePromise({ status, stdout, stderr: stderr.toString('utf8') })
      },
    )
    if (options.input !== undefined) child.stdin?.end(options.input)
    else child.stdin?.end()
  })
}
