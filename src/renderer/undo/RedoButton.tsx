import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'

/**
 * Redo of an undo, from where the transcript shows it: the files (and branch) go back to what
 * they were before it, and its records are no longer marked undone (the redo's own record says
 * so when it lands).
 */
export function RedoButton({ name, undoId }: { readonly name: string; readonly undoId: string }) {
  const redo = useCommand(useAppStore((state) => state.redoUndo))
  return (
    <>
      <button
        type="button"
        className="link-button undo-redo"
        disabled={redo.pending}
        title="Puts back what this undo took back"
        onClick={() => void redo.run({ name, undoId })}
      >
        {redo.pending ? 'Redoing…' : 'Redo'}
      </button>
      <InlineError error={redo.error} />
    </>
  )
}
