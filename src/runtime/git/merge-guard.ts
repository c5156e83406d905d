/**
 * What a merge may bring into the base without the person saying so. A merge is the one way a
 * teammate's files reach the workspace outside its sandbox, so:
 * - the team's own files (a `.team` folder at any depth, and the old `.team-worktrees`) never
 *   come through a merge: `.team/control.jsonl` is the person's channel, `.team/sandbox.json`
 *   and the rest widen rights;
 * - files that change how git or the app behaves (attributes and submodules, hook folders, MCP
 *   servers, agents' instructions, Claude Code's settings) are merged only when the person
 *   confirms, having been shown which.
 */
const TEAM_FOLDERS = new Set(['.team', '.team-worktrees'])

/** Whole files, at any depth: their name alone changes what git or the agents do. */
const BEHAVIOUR_FILES = new Set([
  '.gitattributes',
  '.gitmodules',
  '.mcp.json',
  'agents.md',
  'claude.md',
])

/** Folders, at any depth, whose every file changes what runs. */
const BEHAVIOUR_FOLDERS = new Set(['.claude', '.husky', '.githooks'])

export interface MergeGuard {
  /** Paths under a team folder: the merge is refused. */
  readonly teamFiles: string[]
  /** Paths that change how git or the app behaves: the merge waits for the person. */
  readonly behaviourFiles: string[]
}

/**
 * Sorts the paths a merge changes (repository-relative, `/`-separated). Names are compared in
 * lower case: on a case-insensitive disk `.Team/x` is checked out into `.team/`.
 */
export function guardMerge(paths: readonly string[]): MergeGuard {
  const teamFiles: string[] = []
  const behaviourFiles: string[] = []
  for (const path of paths) {
    const parts = path.toLowerCase().split('/')
    const folders = parts.slice(0, -1)
    const name = parts.at(-1) ?? ''
    if (parts.some((part) => TEAM_FOLDERS.has(part))) teamFiles.push(path)
    else if (BEHAVIOUR_FILES.has(name) || folders.some((part) => BEHAVIOUR_FOLDERS.has(part)))
      behaviourFiles.push(path)
  }
  return { teamFiles, behaviourFiles }
}
