import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { useCommand } from '../ui/useCommand'

/**
 * Asks before a shutdown request goes out: a shut-down teammate ends its work and stays down
 * until it is spawned again, so one stray click must not send it.
 */
export function ShutdownDialog({ name }: { readonly name: string }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const requestShutdown = useAppStore((state) => state.requestShutdown)
  const command = useCommand(requestShutdown)

  async function confirm(): Promise<void> {
    if (command.pending) return
    const outcome = await command.run(name)
    if (outcome.ok) closeDialog()
  }

  return (
    <Dialog
      title={`Shut down ${name}?`}
      description={`${name} is asked to shut down: it answers, finishes its current step and ends. Its mail waits in its inbox until you spawn it again.`}
      onClose={closeDialog}
    >
      <InlineError error={command.error} />
      <DialogFooter
        cancel={{ label: 'Cancel', onClick: closeDialog, autoFocus: true }}
        action={{
          label: `Shut down ${name}`,
          tone: 'danger',
          onClick: () => void confirm(),
          pending: command.pending,
          pendingLabel: 'Asking…',
        }}
      />
    </Dialog>
  )
}
