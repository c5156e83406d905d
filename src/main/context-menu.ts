import type { ContextMenuParams, MenuItemConstructorOptions } from 'electron'
import { z } from 'zod'

/** What the person right-clicked in the page, beyond what Electron's params tell. */
export interface ContextTarget {
  /** The text of the message under the pointer (`data-copy-message`), or null. */
  readonly message: string | null
  /** The text of the code block under the pointer, or null. */
  readonly code: string | null
}

export const noContextTarget: ContextTarget = { message: null, code: null }

const contextTargetSchema = z.object({
  message: z.string().nullable(),
  code: z.string().nullable(),
})

/**
 * The script main runs in the page to find what is under the pointer: the nearest element with
 * a `data-copy-message` (the raw text of a message) and the nearest code block. Electron's
 * context-menu params say nothing about the page's own structure, and asking the page this way
 * needs no extra IPC channel or race with the menu. `zoom` turns the params' window pixels into
 * the page's CSS pixels.
 */
export function contextTargetScript(x: number, y: number, zoom: number): string {
  const px = Math.round(x / zoom)
  const py = Math.round(y / zoom)
  return `(() => {
  const element = document.elementFromPoint(${px}, ${py})
  if (element === null) return { message: null, code: null }
  const message = element.closest('[data-copy-message]')
  const code = element.closest('pre')
  return {
    message: message === null ? null : message.getAttribute('data-copy-message'),
    code: code === null ? null : code.textContent,
  }
})()`
}

/** The page's answer, checked: anything unexpected means "nothing special under the pointer". */
export function parseContextTarget(value: unknown): ContextTarget {
  const parsed = contextTargetSchema.safeParse(value)
  return parsed.success ? parsed.data : noContextTarget
}

/** The part of Electron's context-menu params the menu depends on. */
export type ContextParams = Pick<
  ContextMenuParams,
  'isEditable' | 'selectionText' | 'misspelledWord' | 'dictionarySuggestions' | 'editFlags'
>

export interface ContextMenuActions {
  copyText(text: string): void
  /** webContents.replaceMisspelling. */
  replaceMisspelling(word: string): void
  /** session.addWordToSpellCheckerDictionary. */
  addToDictionary(word: string): void
}

/**
 * The right-click menu, from Electron's params and what is under the pointer: spelling first
 * (in a field, over a misspelled word), then the edit roles that apply, then copying a whole
 * message or code block. Empty when nothing applies (no menu is shown then).
 */
export function buildContextMenuTemplate(
  params: ContextParams,
  target: ContextTarget,
  actions: ContextMenuActions,
): MenuItemConstructorOptions[] {
  const groups = [
    spellingItems(params, actions),
    editItems(params),
    copyItems(target, actions),
  ].filter((group) => group.length > 0)
  return groups.flatMap((group, index) =>
    index === 0 ? group : [{ type: 'separator' as const }, ...group],
  )
}

function spellingItems(
  params: ContextParams,
  actions: ContextMenuActions,
): MenuItemConstructorOptions[] {
  const word = params.misspelledWord
  if (!params.isEditable || word === '') return []
  const suggestions: MenuItemConstructorOptions[] =
    params.dictionarySuggestions.length === 0
      ? [{ label: 'No spelling suggestions', enabled: false }]
      : params.dictionarySuggestions.map((suggestion) => ({
          label: suggestion,
          click: () => actions.replaceMisspelling(suggestion),
        }))
  return [
    ...suggestions,
    { label: 'Add to Dictionary', click: () => actions.addToDictionary(word) },
  ]
}

function editItems(params: ContextParams): MenuItemConstructorOptions[] {
  const flags = params.editFlags
  const hasSelection = params.selectionText.trim() !== ''
  if (params.isEditable) {
    return [
      { role: 'cut', enabled: flags.canCut },
      { role: 'copy', enabled: flags.canCopy },
      { role: 'paste', enabled: flags.canPaste },
      { type: 'separator' },
      { role: 'selectAll', enabled: flags.canSelectAll },
    ]
  }
  return [...(hasSelection ? [{ role: 'copy' as const }] : []), { role: 'selectAll' }]
}

function copyItems(
  target: ContextTarget,
  actions: ContextMenuActions,
): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = []
  const { message, code } = target
  if (code !== null && code !== '')
    items.push({ label: 'Copy Code', click: () => actions.copyText(code) })
  if (message !== null && message !== '')
    items.push({ label: 'Copy Message', click: () => actions.copyText(message) })
  return items
}
