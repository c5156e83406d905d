import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react'

const focusable =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * A modal: Esc closes it, Tab stays inside, the first field takes focus, and focus goes back
 * to where it was when it closes.
 */
export function Dialog({
  title,
  description,
  onClose,
  children,
  wide = false,
}: {
  readonly title: string
  readonly description?: ReactNode
  readonly onClose: () => void
  readonly children: ReactNode
  readonly wide?: boolean
}) {
  const titleId = useId()
  const panel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const first = panel.current?.querySelector<HTMLElement>('[data-autofocus]')
    ;(first ?? panel.current?.querySelector<HTMLElement>(focusable))?.focus()
    return () => previous?.focus()
  }, [])

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>): void {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onClose()
      return
    }
    if (event.key !== 'Tab' || panel.current === null) return
    const items = [...panel.current.querySelectorAll<HTMLElement>(focusable)]
    const first = items[0]
    const last = items[items.length - 1]
    if (first === undefined || last === undefined) return
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return (
    <div
      className="dialog-backdrop"
      onMouseDown={(event) => {
        if (event.target === event.currentTarget) onClose()
      }}
    >
      <div
        ref={panel}
        className={wide ? 'dialog dialog-wide' : 'dialog'}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
      >
        <header className="dialog-header">
          <h2 id={titleId}>{title}</h2>
          <button type="button" className="icon-button" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </header>
        {description ? <div className="dialog-description">{description}</div> : null}
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  )
}

/** A failed command, shown where it was asked for. */
export function InlineError({
  error,
}: {
  readonly error: { code: string; message: string } | null
}) {
  if (error === null) return null
  return (
    // The code stays out of sight (the message says what to do); it is kept for tools and tests.
    <p className="inline-error" role="alert" data-code={error.code}>
      <span className="inline-error-message">{error.message}</span>
    </p>
  )
}
