import { useEffect, useState } from 'react'

/** How long the button says "Copied" before it reads "Copy" again. */
const CONFIRMATION_MS = 1500

/** Writes text to the system clipboard; rejects where the page has no clipboard access. */
export async function copyText(text: string): Promise<void> {
  const clipboard = globalThis.navigator?.clipboard as Clipboard | undefined
  if (clipboard === undefined) throw new Error('The clipboard is not available in this window.')
  await clipboard.writeText(text)
}

type CopyState = 'idle' | 'copied' | 'failed'

/** A small "Copy" button for a message or a code block; says whether it worked. */
export function CopyButton({ text, label }: { readonly text: string; readonly label: string }) {
  const [state, setState] = useState<CopyState>('idle')
  useEffect(() => {
    if (state === 'idle') return
    const timer = setTimeout(() => setState('idle'), CONFIRMATION_MS)
    return () => clearTimeout(timer)
  }, [state])
  return (
    <button
      type="button"
      className={`copy-button copy-${state}`}
      aria-label={label}
      title={
        state === 'failed'
          ? 'The clipboard refused the text: select it and press Ctrl+C instead'
          : label
      }
      onClick={() => {
        copyText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Not copied' : 'Copy'}
    </button>
  )
}
