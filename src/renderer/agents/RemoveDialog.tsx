import { useState } from 'react'
import type { BranchAction } from '../../shared/worktree'
import { useAppStore } from '../store/context'
import { describeFailure, type CommandFailure } from '../store/failures'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'

/**
 * Takes a teammate off the team. Its transcript stays; its worktree goes. When its branch holds
 * work the base does not have, the runtime refuses until the person chooses: keep the branch,
 * merge it, or delete it. Nothing unmerged is deleted without that choice.
 */
export function RemoveDialog({ name }: { readonly name: string }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const removeTeammate = useAppStore((state) => state.removeTeammate)
  const [pending, setPending] = useState(false)
  const [unmerged, setUnmerged] = useState<string | null>(null)
  const [error, setError] = useState<CommandFailure | null>(null)

  async function remove(branch?: BranchAction): Promise<void> {
    if (pending) return
    setPending(true)
    setError(null)
    try {
      await removeTeammate({ name, ...(branch === undefined ? {} : { branch }) })
      closeDialog()
    } catch (failure) {
      const described = describeFailure(failure)
      if (described.code === 'unmerged-work') setUnmerged(described.message)
      else setError(described)
    } finally {
      setPending(false)
    }
  }

  return (
    <Dialog
      title={`Remove ${name}?`}
      description={`${name} leaves the roster; its transcript stays in .team/, so spawning the name again brings its memory back.`}
      onClose={closeDialog}
    >
      {unmerged !== null ? (
        <p className="field-note" role="alert" data-testid="unmerged-work">
          {unmerged}
        </p>
      ) : null}
      <InlineError error={error} />
      <DialogFooter
        cancel={{ label: 'Cancel', onClick: closeDialog, autoFocus: true }}
        action={
          unmerged === null
            ? {
                label: <>Remove {name}</>,
                tone: 'danger',
                disabled: pending,
                onClick: () => void remove(),
              }
            : undefined
        }
      >
        {unmerged === null ? null : (
          <>
            <button
              type="button"
              className="button"
              disabled={pending}
              onClick={() => void remove('keep')}
            >
              Keep the branch
            </button>
            <button
              type="button"
              className="button button-primary"
              disabled={pending}
              onClick={() => void remove('merge')}
            >
              Merge it
            </button>
            <button
              type="button"
              className="button button-danger"
              disabled={pending}
              onClick={() => void remove('delete')}
            >
              Delete it
            </button>
          </>
        )}
      </DialogFooter>
    </Dialog>
  )
}
