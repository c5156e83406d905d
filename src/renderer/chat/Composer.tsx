import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
} from 'react'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { useCommand } from '../ui/useCommand'

export interface ComposerAction {
  readonly label: string
  /** Sends the text; a `notice` it resolves to is shown under the box ("Broadcast reached 3…"). */
  readonly send: (text: string) => Promise<{ readonly notice: string } | void>
  /** Asked in a dialog before sending, for an action that reaches more than one agent. */
  readonly confirm?: {
    readonly title: string
    readonly description: string
    readonly label: string
  }
}

/** The box grows with its text up to this share of the window's height, then scrolls. */
const MAX_HEIGHT_SHARE = 0.4

/**
 * A message box: Enter sends, Shift+Enter starts a new line. The text stays when sending
 * fails, with the error under it, so nothing the person wrote is lost.
 */
export function Composer({
  label,
  placeholder,
  primary,
  secondary,
  takesFocusRequests = false,
  hint,
}: {
  readonly label: string
  readonly placeholder: string
  readonly primary: ComposerAction
  readonly secondary?: ComposerAction
  /** Whether Ctrl/Cmd+K puts the cursor here. */
  readonly takesFocusRequests?: boolean
  readonly hint?: ReactNode
}) {
  const id = useId()
  const [text, setText] = useState('')
  const [notice, setNotice] = useState<string | null>(null)
  const [asking, setAsking] = useState<ComposerAction | null>(null)
  const field = useRef<HTMLTextAreaElement>(null)
  const focusRequest = useAppStore((state) => state.composerFocusRequest)
  const focusHandled = useAppStore((state) => state.composerFocusHandled)
  const composerFocused = useAppStore((state) => state.composerFocused)
  const first = useCommand(primary.send)
  const second = useCommand(secondary?.send ?? primary.send)
  const pending = first.pending || second.pending
  useAutoGrow(field, text)
  const { clearError: clearFirst } = first
  const { clearError: clearSecond } = second
  const settings = useAppStore((state) => state.settings)
  const hasModel = settings !== null && (settings.apiKeySet || settings.useOfflineModel)

  // "No API key is set" is stale once there is one: a saved key (or the offline model) clears
  // what the last failed send said, rather than leaving it under a box that now works.
  useEffect(() => {
    if (!hasModel) return
    clearFirst()
    clearSecond()
  }, [hasModel, settings, clearFirst, clearSecond])

  useEffect(() => {
    if (!takesFocusRequests || focusRequest <= focusHandled) return
    field.current?.focus()
    composerFocused(focusRequest)
  }, [focusRequest, focusHandled, takesFocusRequests, composerFocused])

  async function submit(action: typeof first, other: typeof first): Promise<void> {
    const content = text.trim()
    if (content.length === 0 || pending) return
    other.clearError()
    setNotice(null)
    const outcome = await action.run(content)
    if (!outcome.ok) return
    setText('')
    setNotice(outcome.value ? outcome.value.notice : null)
  }

  /** Sends with `action`, asking first when it says so. */
  function request(action: ComposerAction): void {
    if (text.trim().length === 0 || pending) return
    if (action.confirm !== undefined) setAsking(action)
    else send(action)
  }

  function send(action: ComposerAction): void {
    if (action === primary) void submit(first, second)
    else void submit(second, first)
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): void {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    request(primary)
  }

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault()
        request(primary)
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        ref={field}
        className="composer-input"
        value={text}
        placeholder={placeholder}
        rows={2}
        onChange={(event) => {
          setText(event.target.value)
          setNotice(null)
        }}
        onKeyDown={onKeyDown}
      />
      <div className="composer-bar">
        <span className="composer-hint">
          {hint ?? (
            <>
              <kbd>Enter</kbd> to send · <kbd>Shift</kbd>+<kbd>Enter</kbd> for a new line
            </>
          )}
        </span>
        {secondary ? (
          <button
            type="button"
            className="button"
            disabled={pending || text.trim().length === 0}
            onClick={() => request(secondary)}
          >
            {secondary.label}
          </button>
        ) : null}
        <button
          type="submit"
          className="button button-primary"
          disabled={pending || text.trim().length === 0}
        >
          {first.pending ? 'Sending…' : primary.label}
        </button>
      </div>
      <InlineError error={first.error ?? second.error} />
      {notice === null ? null : (
        <p className="composer-notice" role="status">
          {notice}
        </p>
      )}
      {asking?.confirm === undefined ? null : (
        <Dialog
          title={asking.confirm.title}
          description={asking.confirm.description}
          onClose={() => setAsking(null)}
        >
          <DialogFooter
            cancel={{ label: 'Cancel', onClick: () => setAsking(null) }}
            action={{
              label: asking.confirm.label,
              autoFocus: true,
              onClick: () => {
                setAsking(null)
                send(asking)
              },
            }}
          />
        </Dialog>
      )}
    </form>
  )
}

/**
 * Fits the box's height to its text after every change, up to MAX_HEIGHT_SHARE of the window;
 * past that it scrolls. Measured before paint, so the box never shows a frame at the old size.
 */
function useAutoGrow(field: RefObject<HTMLTextAreaElement | null>, text: string): void {
  useLayoutEffect(() => {
    const element = field.current
    if (element === null) return
    element.style.height = 'auto' // lets scrollHeight shrink back when text is removed
    const borders = element.offsetHeight - element.clientHeight
    const limit = Math.round(window.innerHeight * MAX_HEIGHT_SHARE)
    const wanted = element.scrollHeight + borders
    element.style.height = `${Math.min(wanted, limit)}px`
    element.style.overflowY = wanted > limit ? 'auto' : 'hidden'
  }, [field, text])
}
