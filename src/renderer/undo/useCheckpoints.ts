import { useEffect, useState } from 'react'
import type { Result } from '../../shared/contract'
import type { MemberStatus } from '../../shared/roster'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'
import { describeFailure, type CommandFailure } from '../store/failures'

export type CheckpointsState =
  | { readonly status: 'loading' }
  | ({ readonly status: 'ready' } & Result<'listCheckpoints'>)
  | { readonly status: 'failed'; readonly error: CommandFailure }

/**
 * An agent's checkpoints (null: none asked for), read again when its status changes (a turn
 * began or ended), after an undo or a redo (a branch moved), and when `again` changes.
 */
export function useCheckpoints(name: string | null, again: unknown = null): CheckpointsState {
  const listCheckpoints = useAppStore((state) => state.listCheckpoints)
  const status = useAppStore((state) => (name === null ? null : own(state.agents, name)?.status))
  const branches = useAppStore((state) => state.branchesVersion)
  const [state, setState] = useState<{ name: string | null; value: CheckpointsState }>({
    name,
    value: { status: 'loading' },
  })
  useEffect(() => {
    if (name === null) return
    let current = true
    listCheckpoints({ name })
      .then((result) => {
        if (current) setState({ name, value: { status: 'ready', ...result } })
      })
      .catch((failure: unknown) => {
        if (current)
          setState({ name, value: { status: 'failed', error: describeFailure(failure) } })
      })
    return () => {
      current = false
    }
  }, [listCheckpoints, name, status, branches, again])
  // Another agent's list is not this one's: loading until its own comes.
  return state.name === name ? state.value : { status: 'loading' }
}

/** Whether undo can be offered for an agent, and why not (a button's title). */
export function undoAvailability(
  name: string,
  checkpoints: CheckpointsState,
  status: MemberStatus | undefined,
): { readonly enabled: boolean; readonly reason: string | null } {
  if (status === 'working')
    return { enabled: false, reason: `${name} is working: undo once its turn has ended.` }
  switch (checkpoints.status) {
    case 'loading':
      return { enabled: false, reason: `Reading ${name}'s checkpoints…` }
    case 'failed':
      return { enabled: false, reason: `Undo is not available: ${checkpoints.error.message}` }
    case 'ready':
      return checkpoints.checkpoints.length === 0
        ? {
            enabled: false,
            reason: `${name} has no checkpoints: one is taken before each turn that may change files in a git folder.`,
          }
        : { enabled: true, reason: null }
  }
}
