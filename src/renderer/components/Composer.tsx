import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useAppStore } from '../store/context'
import { InlineError } from './Dialog'
import { useCommand } from './useCommand'

export interface ComposerAction {
  readonly label: string
  readonly send: (text: string) => Promise<unknown>
}

/**
 * A message box: Enter sends, Shift+Enter starts a new line. The text stays when sending
 * fails, with the error under it, so nothing the person wrote is lost.
 */
export function Composer({
  label,
  placeholder,
  primary,
  secondary,
  tools,
  takesFocusRequests = false,
  hint,
}: {
  readonly label: string
  readonly placeholder: string
  readonly primary: ComposerAction
  readonly secondary?: ComposerAction
  /** Extra controls beside the buttons (the inbox's message type). */
  readonly tools?: ReactNode
  /** Whether Ctrl/Cmd+K puts the cursor here. */
  readonly takesFocusRequests?: boolean
  readonly hint?: ReactNode
}) {
  const id = useId()
  const [text, setText] = useState('')
  const field = useRef<HTMLTextAreaElement>(null)
  const focusRequest = useAppStore((state) => state.composerFocusRequest)
  const focusHandled = useAppStore((state) => state.composerFocusHandled)
  const composerFocused = useAppStore((state) => state.composerFocused)
  const first = useCommand(primary.send)
  const second = useCommand(secondary?.send ?? primary.send)
  const pending = first.pending || second.pending

  useEffect(() => {
    if (!takesFocusRequests || focusRequest <= focusHandled) return
    field.current?.focus()
    composerFocused(focusRequest)
  }, [focusRequest, focusHandled, takesFocusRequests, composerFocused])

  async function submit(action: typeof first, other: typeof first): Promise<void> {
    const content = text.trim()
    if (content.length === 0 || pending) return
    other.clearError()
    const outcome = await action.run(content)
    if (outcome.ok) setText('')
  }

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>): void {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    event.preventDefault()
    void submit(first, second)
  }

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault()
        void submit(first, second)
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
        onChange={(event) => setText(event.target.value)}
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
        {tools}
        {secondary ? (
          <button
            type="button"
            className="button"
            disabled={pending || text.trim().length === 0}
            onClick={() => void submit(second, first)}
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
    </form>
  )
}
