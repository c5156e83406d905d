import { useEffect } from 'react'
import type { AppStore } from '../store/store'
import { own } from '../../shared/own'

export interface Shortcut {
  /** Alternatives: any one of them does it. */
  readonly keys: readonly string[]
  readonly action: string
}

const mod = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform) ? '⌘' : 'Ctrl'

/** Listed in the help panel, in this order. */
export const shortcuts: readonly Shortcut[] = [
  { keys: [`${mod}+K`], action: 'Focus the message box of the open agent' },
  { keys: [`${mod}+N`, 'Alt+N'], action: 'Spawn a teammate' },
  { keys: [`${mod}+1…9`, 'Alt+1…9'], action: 'Open the lead (1) or a teammate (2–9)' },
  { keys: [`${mod}+I`], action: 'Inbox of the open agent' },
  { keys: [`${mod}+Shift+A`], action: 'Activity panes of the whole team' },
  { keys: [`${mod}+Shift+F`], action: 'Search every transcript and inbox of the team' },
  { keys: [`${mod}+Shift+L`], action: 'Timeline of the whole team, and its replay' },
  { keys: [`${mod}+B`], action: 'Show or hide the roster' },
  { keys: [`${mod}+.`], action: 'Stop the open agent while it works' },
  { keys: [`${mod}+O`], action: 'Open a folder' },
  { keys: [`${mod}+,`], action: 'Settings' },
  { keys: ['Enter'], action: 'Send, in a message box (Shift+Enter: a new line)' },
  { keys: ['Esc'], action: 'Close the dialog' },
  { keys: ['?', 'F1'], action: 'This help' },
]

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  )
}

/** What a key press asks for, or null; pure, so the mapping is easy to read and test. */
export function shortcutFor(event: KeyboardEvent): string | null {
  const command = event.ctrlKey || event.metaKey
  const key = event.key.toLowerCase()
  if (event.key === 'F1') return 'help'
  if (event.key === 'Escape') return 'close'
  if (command && event.shiftKey && key === 'a') return 'activity'
  if (command && event.shiftKey && key === 'f') return 'search'
  if (command && event.shiftKey && key === 'l') return 'timeline'
  if (command && !event.shiftKey && !event.altKey) {
    if (key === 'k') return 'focus'
    if (key === 'n') return 'spawn'
    if (key === 'i') return 'inbox'
    if (key === 'b') return 'roster'
    if (key === ',') return 'settings'
    if (key === 'o') return 'open'
    if (key === '.') return 'stop'
    if (/^[1-9]$/.test(key)) return `select-${key}`
  }
  // Browsers keep Ctrl+N and Ctrl+1…9 for themselves: Alt works in browser mode.
  if (event.altKey && !command) {
    if (/^Digit[1-9]$/.test(event.code)) return `select-${event.code.slice(5)}`
    if (event.code === 'KeyN') return 'spawn'
  }
  if (event.key === '?' && !isTyping(event.target)) return 'help'
  return null
}

/** The window's keyboard shortcuts, on one listener that the window owns and removes. */
export function useShortcuts(store: AppStore): void {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent): void {
      if (event.defaultPrevented) return
      const shortcut = shortcutFor(event)
      if (shortcut === null) return
      const state = store.getState()
      const inTeam = state.firstRunDone && state.workspace !== null
      if (shortcut === 'close') {
        if (state.dialog !== null) state.closeDialog()
        return
      }
      if (state.dialog !== null && shortcut !== 'help') return
      event.preventDefault()
      if (shortcut === 'help') state.openDialog({ kind: 'help' })
      else if (shortcut === 'settings') state.openDialog({ kind: 'settings' })
      else if (shortcut === 'open') state.openDialog({ kind: 'open-workspace' })
      else if (!inTeam) return
      else if (shortcut === 'focus') state.requestComposerFocus()
      else if (shortcut === 'spawn') state.openDialog({ kind: 'spawn', prefill: null })
      else if (shortcut === 'inbox') state.select(state.selected, 'inbox')
      else if (shortcut === 'activity') state.showView('activity')
      else if (shortcut === 'timeline') state.showView('timeline')
      else if (shortcut === 'search') state.openDialog({ kind: 'search' })
      else if (shortcut === 'roster') state.toggleRoster()
      else if (shortcut === 'stop') {
        const name = state.selected
        if (own(state.agents, name)?.status === 'working')
          state
            .stopAgent(name)
            .catch((error: unknown) => state.reportFailure(`Could not stop ${name}`, error))
      } else if (shortcut.startsWith('select-')) {
        const name = state.order[Number(shortcut.slice(7)) - 1]
        if (name !== undefined)
          state.select(name, state.view === 'inbox' ? 'inbox' : 'conversation')
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [store])
}
