import type { ReactNode } from 'react'

interface FooterButton {
  readonly label: ReactNode
  /** Without one, the button submits its form. */
  readonly onClick?: () => void
  readonly disabled?: boolean
  readonly title?: string
  /** The dialog's first focus (Dialog looks for `data-autofocus`). */
  readonly autoFocus?: boolean
}

interface FooterAction extends FooterButton {
  /** Primary unless it destroys (danger) or is one step among others (plain). */
  readonly tone?: 'primary' | 'danger' | 'plain'
  /** While its command runs the button is disabled, and says so when given words for it. */
  readonly pending?: boolean
  readonly pendingLabel?: ReactNode
}

const TONES = { primary: ' button-primary', danger: ' button-danger', plain: '' } as const

/**
 * A dialog's row of buttons: the way out first, what the dialog is for last (at the right
 * edge), and anything else between them. `leading` sits before the buttons (quiet words, such
 * as the keys, go to the far left).
 */
export function DialogFooter({
  cancel,
  action,
  leading,
  small = false,
  children,
}: {
  /** Closes it, or goes back, without doing anything. */
  readonly cancel?: FooterButton
  readonly action?: FooterAction
  readonly leading?: ReactNode
  readonly small?: boolean
  /** Buttons between the way out and the action. */
  readonly children?: ReactNode
}) {
  const base = small ? 'button button-small' : 'button'
  return (
    <div className="form-actions">
      {leading}
      {cancel === undefined ? null : <FooterButtonView button={cancel} className={base} />}
      {children}
      {action === undefined ? null : (
        <FooterButtonView
          button={{
            ...action,
            label:
              action.pending === true && action.pendingLabel !== undefined
                ? action.pendingLabel
                : action.label,
            disabled: action.pending === true || action.disabled === true,
          }}
          className={base + TONES[action.tone ?? 'primary']}
        />
      )}
    </div>
  )
}

function FooterButtonView({
  button,
  className,
}: {
  readonly button: FooterButton
  readonly className: string
}) {
  return (
    <button
      type={button.onClick === undefined ? 'submit' : 'button'}
      className={className}
      disabled={button.disabled}
      title={button.title}
      data-autofocus={button.autoFocus === true ? true : undefined}
      onClick={button.onClick}
    >
      {button.label}
    </button>
  )
}
