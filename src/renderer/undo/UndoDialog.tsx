import { useEffect, useId, useState } from 'react'
import type { UndoPlan, UndoResult, UndoTarget } from '../../shared/undo'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { useCommand } from '../ui/useCommand'
import { applyBlock, applyParams, undoTitle } from './undo-plan'
import { UndoPlanView } from './UndoPlanView'
import { UndoResultView } from './UndoResultView'
import '../changes/changes.css'

/** Where the dialog is: the plan shown first, then what the undo (and a redo) did. */
type Phase =
  | { readonly kind: 'planning' }
  | { readonly kind: 'planned'; readonly plan: UndoPlan }
  | { readonly kind: 'undone'; readonly plan: UndoPlan; readonly result: UndoResult }
  | { readonly kind: 'redone'; readonly result: UndoResult }

/**
 * Undo of what an agent did. It asks for the plan and shows it first (`UndoPlanView`); Undo
 * applies that plan, by its id, with the flagged files the person ticked. An undo refused
 * because things moved since the plan says so and offers to plan again. Once done, it says
 * what changed and offers Redo.
 */
export function UndoDialog({
  name,
  target,
}: {
  readonly name: string
  readonly target: UndoTarget
}) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const plan = useCommand(useAppStore((state) => state.planUndo))
  const apply = useCommand(useAppStore((state) => state.applyUndo))
  const redo = useCommand(useAppStore((state) => state.redoUndo))
  const [phase, setPhase] = useState<Phase>({ kind: 'planning' })
  const [overwrite, setOverwrite] = useState<ReadonlySet<string>>(new Set())
  const [reason, setReason] = useState('')
  const reasonId = useId()
  const [planned, setPlanned] = useState(0)

  const { run: runPlan } = plan
  useEffect(() => {
    let current = true
    void runPlan({ name, target }).then((outcome) => {
      if (!current || !outcome.ok) return
      setPhase({ kind: 'planned', plan: outcome.value })
      setOverwrite(new Set())
    })
    return () => {
      current = false
    }
  }, [runPlan, name, target, planned])

  function planAgain(): void {
    apply.clearError()
    setPhase({ kind: 'planning' })
    setPlanned((count) => count + 1)
  }

  const title = undoTitle(name, target)
  switch (phase.kind) {
    case 'planning':
      return (
        <Dialog title={title} onClose={closeDialog} wide>
          {plan.error === null ? (
            <p className="muted" role="status">
              Working out what the undo would change…
            </p>
          ) : (
            <>
              <InlineError error={plan.error} />
              <DialogFooter
                cancel={{ label: 'Close', onClick: closeDialog }}
                action={{ label: 'Try again', tone: 'plain', onClick: planAgain }}
              />
            </>
          )}
        </Dialog>
      )
    case 'planned': {
      const blocked = applyBlock(phase.plan)
      return (
        <Dialog
          title={title}
          onClose={closeDialog}
          wide
          description="Nothing is changed until you press Undo."
        >
          <UndoPlanView
            plan={phase.plan}
            overwrite={overwrite}
            onOverwrite={(path, chosen) => {
              const next = new Set(overwrite)
              if (chosen) next.add(path)
              else next.delete(path)
              setOverwrite(next)
            }}
          />
          {blocked === null ? (
            <div className="undo-reason">
              <Field id={reasonId} label={`Tell ${name} why (optional)`}>
                <input
                  id={reasonId}
                  value={reason}
                  maxLength={2000}
                  placeholder="It is told in its inbox what was undone; say why, so it does not try it again"
                  onChange={(event) => setReason(event.target.value)}
                />
              </Field>
            </div>
          ) : null}
          {apply.error === null ? null : (
            <div className="undo-apply-failed">
              {apply.error.code === 'plan-outdated' ? (
                <p className="small" data-testid="undo-outdated">
                  <strong>Things moved since this plan was made</strong>, so nothing was undone.
                  Plan again to see what the undo would change now.
                </p>
              ) : null}
              <InlineError error={apply.error} />
              <button type="button" className="button button-small" onClick={planAgain}>
                Plan again
              </button>
            </div>
          )}
          <DialogFooter
            leading={
              blocked === null ? null : (
                <span className="undo-blocked small" data-testid="undo-blocked">
                  {blocked}
                </span>
              )
            }
            cancel={{ label: 'Cancel', onClick: closeDialog }}
            action={{
              label: 'Undo',
              tone: 'danger',
              disabled: blocked !== null || apply.error !== null,
              ...(blocked === null ? {} : { title: blocked }),
              pending: apply.pending,
              pendingLabel: 'Undoing…',
              onClick: () =>
                void apply.run(applyParams(phase.plan, overwrite, reason)).then((outcome) => {
                  if (outcome.ok)
                    setPhase({ kind: 'undone', plan: phase.plan, result: outcome.value })
                }),
            }}
          />
        </Dialog>
      )
    }
    case 'undone':
      return (
        <Dialog title={title} onClose={closeDialog} wide>
          <UndoResultView name={name} result={phase.result} done="undone" />
          <InlineError error={redo.error} />
          <DialogFooter
            cancel={{ label: 'Close', onClick: closeDialog, autoFocus: true }}
            action={{
              label: 'Redo',
              tone: 'plain',
              pending: redo.pending,
              pendingLabel: 'Redoing…',
              onClick: () =>
                void redo.run({ name, undoId: phase.result.undoId }).then((outcome) => {
                  if (outcome.ok) setPhase({ kind: 'redone', result: outcome.value })
                }),
            }}
          />
        </Dialog>
      )
    case 'redone':
      return (
        <Dialog title={title} onClose={closeDialog} wide>
          <UndoResultView name={name} result={phase.result} done="redone" />
          <DialogFooter cancel={{ label: 'Close', onClick: closeDialog, autoFocus: true }} />
        </Dialog>
      )
  }
}
