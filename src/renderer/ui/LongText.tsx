import { useMemo, useState } from 'react'
import { useScrollHold } from '../chat/transcript/scroll-hold'

/*
 * Past this many lines or characters a message shows its beginning and "Show more": a 50 KB
 * paste would otherwise bury everything around it (and cost its whole text in the DOM).
 */
const PREVIEW_LINES = 12
const PREVIEW_CHARS = 1500

/** The beginning of `text` to show collapsed, or null when the text is short enough to show whole. */
export function textPreview(text: string): string | null {
  let cut = Math.min(text.length, PREVIEW_CHARS)
  let newline = -1
  for (let line = 0; line < PREVIEW_LINES; line++) {
    newline = text.indexOf('\n', newline + 1)
    if (newline < 0 || newline >= cut) break
  }
  if (newline >= 0 && newline < cut) cut = newline
  if (text.slice(cut).trim().length === 0) return null
  return text.slice(0, cut).trimEnd()
}

/**
 * A plain-text message, collapsed to its beginning when it is long, with a button to open and
 * close it. What is copied (`data-copy-message`) is always the whole text.
 */
export function LongText({
  text,
  className,
}: {
  readonly text: string
  readonly className: string
}) {
  const [open, setOpen] = useState(false)
  // In a transcript, the message stays where it is on screen as it opens.
  const hold = useScrollHold()
  const preview = useMemo(() => textPreview(text), [text])
  return (
    <>
      <div className={className} data-copy-message={text}>
        {preview === null || open ? text : `${preview}…`}
      </div>
      {preview === null ? null : (
        <button
          type="button"
          className="link-button show-more"
          aria-expanded={open}
          onClick={() => {
            hold()
            setOpen(!open)
          }}
        >
          {open ? 'Show less' : `Show more (${formatSize(text)})`}
        </button>
      )}
    </>
  )
}

function formatSize(text: string): string {
  const lines = text.split('\n').length
  return lines > 1 ? `${lines} lines` : `${Math.round(text.length / 1000)}k characters`
}
