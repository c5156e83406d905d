/**
 * What the person did on the first view before the app took over. index.html's inline script
 * keeps every click (with the element it was over) and every key pressed while the first view is
 * up; the app takes them when it replaces the view and does them itself: a click on the same
 * control of its own page, a key sent to the page as it would have come. So a roster row
 * clicked in the second before the app runs opens that agent, as it would a second later.
 */

/** The inline script's recorder on `window`; the name is index.html's. */
const RECORDER = 'agentTeamsEarlyInput'

/** How many inputs the inline script keeps at most; more is not a person acting. */
const KEPT = 50

export type EarlyInput =
  | { readonly kind: 'click'; readonly target: Element }
  | { readonly kind: 'key'; readonly event: KeyboardEvent }

/** What is done at the take-over, each found on the app's page before the first view goes. */
export type EarlyAction =
  | { readonly kind: 'click'; readonly control: HTMLElement }
  | { readonly kind: 'key'; readonly event: KeyboardEvent }

/**
 * Stops the recording and returns what it kept, oldest first; nothing where no recorder ran (a
 * page without the inline script, the Electron window's first load, a second take).
 */
export function takeEarlyInput(): readonly EarlyInput[] {
  if (typeof window === 'undefined') return []
  const recorder: unknown = Reflect.get(window, RECORDER)
  Reflect.deleteProperty(window, RECORDER)
  // Only the inline script sets it; an element named so (the page has none) would not do.
  if (typeof recorder !== 'object' || recorder === null || !('take' in recorder)) return []
  const take = recorder.take
  if (typeof take !== 'function') return []
  const kept: unknown = take()
  return Array.isArray(kept) ? kept.slice(0, KEPT).filter(isEarlyInput) : []
}

function isEarlyInput(value: unknown): value is EarlyInput {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false
  if (value.kind === 'click') return 'target' in value && value.target instanceof Element
  return value.kind === 'key' && 'event' in value && value.event instanceof KeyboardEvent
}

/** What a click is on: the control that would take it (a click on its label or icon included). */
const CONTROL = 'button, a[href], input, select, textarea, summary, label, [role="tab"]'

/**
 * What each input asks of the app's page (`root`), looked for while the first view (`view`) is
 * still in the document. A click finds the control at the same place of the app's page (see
 * `counterpartOf`); a key the app already handled while the view was up (its chunk had run)
 * is not done again.
 */
export function earlyActions(
  inputs: readonly EarlyInput[],
  view: Element,
  root: Element,
): readonly EarlyAction[] {
  const actions: EarlyAction[] = []
  for (const input of inputs) {
    if (input.kind === 'key') {
      if (!input.event.defaultPrevented) actions.push(input)
      continue
    }
    const control = counterpartOf(input.target, view, root)
    if (control !== null) actions.push({ kind: 'click', control })
  }
  return actions
}

/**
 * The control of the app's page that is the one `target` is in on the first view, or null. Both
 * are the window's shell drawn from the same state, so the control sits at the same place: the
 * same element at each step down from the root. That the state has not changed meanwhile is
 * checked on the control itself: its name (`title`, else its text) and the named part it
 * belongs to (the nearest `data-testid`, a roster row, say) must be the same, else the click is
 * dropped rather than land on another control. Parts the first view draws its own way (the
 * transcript's plain rows, marked `data-first-view-only`) have no counterpart.
 */
export function counterpartOf(target: Element, view: Element, root: Element): HTMLElement | null {
  const control = target.closest(CONTROL)
  if (control === null || !view.contains(control) || control.closest('[data-first-view-only]'))
    return null
  const path: { index: number; tag: string }[] = []
  for (let node: Element = control; node !== view;) {
    const parent: Element | null = node.parentElement
    if (parent === null) return null
    path.unshift({ index: Array.prototype.indexOf.call(parent.children, node), tag: node.tagName })
    node = parent
  }
  let found: Element = root
  for (const step of path) {
    const child = found.children[step.index]
    if (child?.tagName !== step.tag) return null
    found = child
  }
  if (!(found instanceof HTMLElement) || !sameControl(control, found)) return null
  return found
}

function sameControl(drawn: Element, own: Element): boolean {
  const part = (element: Element) =>
    element.closest('[data-testid]')?.getAttribute('data-testid') ?? null
  return nameOf(drawn) === nameOf(own) && part(drawn) === part(own)
}

function nameOf(element: Element): string {
  return element.getAttribute('title') ?? element.textContent.trim()
}

/** A click on these puts the caret there: the person means to type. */
const FIELD = 'input, textarea, select'

/**
 * Does each action, in the order the person did them: a click clicks its control (and focuses
 * a field, as a pointer would); a key goes to what has the focus by then, as it would have.
 */
export function doEarlyActions(actions: readonly EarlyAction[]): void {
  for (const action of actions) {
    if (action.kind === 'click') {
      if (action.control.matches(FIELD)) action.control.focus()
      action.control.click()
      continue
    }
    const { event } = action
    const target = document.activeElement ?? document.body
    target.dispatchEvent(
      new KeyboardEvent('keydown', {
        key: event.key,
        code: event.code,
        location: event.location,
        repeat: event.repeat,
        ctrlKey: event.ctrlKey,
        shiftKey: event.shiftKey,
        altKey: event.altKey,
        metaKey: event.metaKey,
        bubbles: true,
        cancelable: true,
      }),
    )
  }
}
