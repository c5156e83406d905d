import { createContext, useContext, useEffect, useState, type ReactNode } from 'react'
import type { Result } from '../../shared/contract'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'

type Worktrees = Result<'getWorktrees'>
type Worktree = Worktrees['teammates'][number]

const WorktreesContext = createContext<Worktrees | null>(null)

/**
 * Every teammate's worktree for the roster, asked once and again whenever an agent's status
 * changes (a turn began or ended: its changes may have too), the board does (a merge moves a
 * task in review to done), git's branches move (a commit or merge by anyone, in any process),
 * or this window merged, handed back or removed a branch.
 */
export function WorktreesProvider({ children }: { readonly children: ReactNode }) {
  const getWorktrees = useAppStore((state) => state.getWorktrees)
  // A string, so that the roster asks again only when a status really changed.
  const statuses = useAppStore((state) =>
    state.order.map((name) => `${name}:${own(state.agents, name)?.status ?? ''}`).join(','),
  )
  const board = useAppStore((state) => state.tasks)
  const branches = useAppStore((state) => state.branchesVersion)
  // A check began or ended on someone's commit: its branch line shows it.
  const checks = useAppStore((state) =>
    (state.reactions?.checks ?? [])
      .map((check) => `${check.agent}:${check.state}:${check.commit ?? ''}`)
      .join(','),
  )
  const [worktrees, setWorktrees] = useState<Worktrees | null>(null)
  useEffect(() => {
    let current = true
    getWorktrees({})
      .then((result) => current && setWorktrees(result))
      // No team open, or no git: the roster simply shows no branches.
      .catch(() => current && setWorktrees(null))
    return () => {
      current = false
    }
  }, [getWorktrees, statuses, board, branches, checks])
  return <WorktreesContext.Provider value={worktrees}>{children}</WorktreesContext.Provider>
}

/** What the spawn dialog needs: whether worktrees are possible here, and the team's default. */
export function useWorktreeDefaults(): { available: boolean; defaultOn: boolean } | null {
  const getWorktrees = useAppStore((state) => state.getWorktrees)
  const [defaults, setDefaults] = useState<{ available: boolean; defaultOn: boolean } | null>(null)
  useEffect(() => {
    let current = true
    getWorktrees({})
      .then((result) => current && setDefaults(result))
      .catch(() => current && setDefaults(null))
    return () => {
      current = false
    }
  }, [getWorktrees])
  return defaults
}

/** A teammate's branch, how many files it changed, and files another teammate changes too. */
export function RosterBranch({ name }: { readonly name: string }) {
  const worktrees = useContext(WorktreesContext)
  const select = useAppStore((state) => state.select)
  const view = worktrees?.teammates.find((teammate) => teammate.name === name)
  if (view === undefined) return null
  const overlaps = Object.entries(view.overlaps)
  const files = view.changedFiles === 1 ? '1 file' : `${view.changedFiles} files`
  return (
    <button
      type="button"
      className="link-button roster-branch"
      data-testid={`roster-branch-${name}`}
      title={`${name} works on ${view.branch} (from ${view.base}); open its changes`}
      onClick={() => select(name, 'changes')}
    >
      <span className="roster-branch-line">
        {view.branch} · {files} changed
        {view.check === undefined ? null : <CheckMark check={view.check} />}
      </span>
      {overlaps.length > 0 ? (
        // A line of its own, so the warning is read whole rather than cut after "ove…".
        <span className="roster-branch-line roster-branch-overlap">
          Overlaps {[...new Set(overlaps.flatMap(([, names]) => names))].join(', ')} on{' '}
          {overlaps.map(([path]) => path).join(', ')}
        </span>
      ) : null}
    </button>
  )
}

/** The check command's last run on the teammate's commits: running, passed or failed. */
function CheckMark({ check }: { readonly check: NonNullable<Worktree['check']> }) {
  const commit = check.commit?.slice(0, 7) ?? '?'
  const words =
    check.state === 'running'
      ? 'check running'
      : check.state === 'passed'
        ? 'check passed'
        : 'check failed'
  return (
    <span
      className={`roster-check roster-check-${check.state}`}
      data-testid="roster-check"
      title={`${check.command}: ${check.summary} on ${commit}`}
    >
      {' '}
      · {words} ({commit})
    </span>
  )
}
