import type { ReactNode } from 'react'

/**
 * A labelled control, as every form writes it: the label, the control, then one line under it,
 * the error when there is one, else the hint. The error takes the hint's place (and its id), so
 * the control's `aria-describedby` names whichever is shown.
 */
export function Field({
  id,
  label,
  hint,
  error,
  messageId,
  announce = false,
  after,
  children,
}: {
  /** The control's id: the label names it. */
  readonly id: string
  readonly label: ReactNode
  /** Under the control while there is no error. */
  readonly hint?: ReactNode
  /** Under the control in the hint's place; null or undefined when there is none. */
  readonly error?: ReactNode
  /** The hint's or the error's id, for the control's `aria-describedby`. */
  readonly messageId?: string
  /** Whether a screen reader is told of the error as it appears (`role="alert"`). */
  readonly announce?: boolean
  /** What follows the hint or the error: a note, a failed command, a row of buttons. */
  readonly after?: ReactNode
  /** The control, and what sits between it and its hint. */
  readonly children: ReactNode
}) {
  const failed = error !== null && error !== undefined && error !== false
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {failed ? (
        <p id={messageId} className="field-error" role={announce ? 'alert' : undefined}>
          {error}
        </p>
      ) : hint === undefined ? null : (
        <p id={messageId} className="field-hint">
          {hint}
        </p>
      )}
      {after}
    </div>
  )
}
