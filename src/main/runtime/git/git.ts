import { execFileSync } from 'node:child_process'
import { TeamError } from '../../../shared/errors'

/** What a git command printed and how it ended. */
export interface GitResult {
  readonly status: number
  readonly stdout: string
  readonly stderr: string
}

/** Output larger than this is a bug or a hostile repository, not a diff anyone reads. */
const MAX_OUTPUT = 64 * 1024 * 1024

/**
 * Runs `git args…` in `cwd` and returns its result whatever the exit status. Git is run with
 * the caller's variables that would redirect it (GIT_DIR, GIT_INDEX_FILE, …) removed, in the C
 * locale so that its words can be matched, and never asking on a terminal.
 */
export function runGit(
  cwd: string,
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string } = {},
): GitResult {
  try {
    const stdout = execFileSync('git', args, {
      cwd,
      env: gitEnvironment(options.env),
      encoding: 'utf8',
      input: options.input,
      maxBuffer: MAX_OUTPUT,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    return { status: 0, stdout, stderr: '' }
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & {
      status?: number | null
      stdout?: string
      stderr?: string
    }
    if (failure.code === 'ENOENT')
      throw new TeamError(
        'io',
        'git is not installed (or not on PATH); install git to use worktrees.',
      )
    if (typeof failure.status !== 'number') throw error
    return { status: failure.status, stdout: failure.stdout ?? '', stderr: failure.stderr ?? '' }
  }
}

/** `git args…` that must succeed: its stdout, or a TeamError naming the command and git's words. */
export function git(
  cwd: string,
  args: readonly string[],
  options: { env?: Record<string, string>; input?: string } = {},
): string {
  const result = runGit(cwd, args, options)
  if (result.status !== 0)
    throw new TeamError(
      'io',
      `git ${args[0] ?? ''} failed: ${(result.stderr || result.stdout).trim() || `exit ${result.status}`}`,
    )
  return result.stdout
}

function gitEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) {
    // A GIT_DIR or GIT_INDEX_FILE inherited from a hook or a terminal would point every command
    // at another repository.
    if (key.startsWith('GIT_') && !key.startsWith('GIT_CONFIG_NOSYSTEM')) continue
    env[key] = value
  }
  return { ...env, LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', ...extra }
}

/** Whether `folder` is inside a git work tree (with at least one commit to branch from). */
export function isGitRepository(folder: string): boolean {
  const inside = runGit(folder, ['rev-parse', '--is-inside-work-tree'])
  if (inside.status !== 0 || inside.stdout.trim() !== 'true') return false
  return runGit(folder, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).status === 0
}

/**
 * The person's name and email for commits the runtime makes on their behalf (merges), or a
 * stand-in when git has none configured, so that a merge never fails on "Please tell me who
 * you are".
 */
export function committerEnvironment(cwd: string): Record<string, string> {
  const configured = (key: string): string => runGit(cwd, ['config', key]).stdout.trim()
  const env: Record<string, string> = {}
  if (configured('user.name') === '') {
    env.GIT_AUTHOR_NAME = 'Agent Teams'
    env.GIT_COMMITTER_NAME = 'Agent Teams'
  }
  if (configured('user.email') === '') {
    env.GIT_AUTHOR_EMAIL = 'agent-teams@localhost'
    env.GIT_COMMITTER_EMAIL = 'agent-teams@localhost'
  }
  return env
}

/** A teammate as the author and committer of the commits made of its work. */
export function teammateIdentity(name: string): Record<string, string> {
  return {
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name}@agent-teams.local`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name}@agent-teams.local`,
  }
}
