import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { APP_ROOT_ID, FIRST_VIEW_ID } from '../../shared/first-view'
import { doEarlyActions, earlyActions, takeEarlyInput, type EarlyAction } from './early-input'

function firstViewElement(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(FIRST_VIEW_ID)
}

/**
 * The host's first view (src/shared/first-view.ts) stays on the page until the app can draw
 * the same (`ready`); then the app draws and the first view goes, in one commit, so the page
 * never shows two teams nor a blank frame. What the person clicked or typed on the first view
 * meanwhile is done then (early-input.ts). Returns true while the app should draw nothing.
 */
export function useFirstViewHandOver(ready: boolean): boolean {
  const [waiting, setWaiting] = useState(() => firstViewElement() !== null)
  // Once handed over it stays so: the app's own loading states are its own from then on.
  if (waiting && ready) setWaiting(false)
  const early = useRef<readonly EarlyAction[]>([])
  useLayoutEffect(() => {
    if (waiting) return
    // Taken even without a first view, so that the inline script's listeners go.
    const inputs = takeEarlyInput()
    const view = firstViewElement()
    const root = document.getElementById(APP_ROOT_ID)
    // Both pages are in the document in this commit: each click finds its control on the
    // app's page before the first view goes.
    if (view !== null && root !== null) early.current = earlyActions(inputs, view, root)
    view?.remove()
  }, [waiting])
  // After the commit, with the app's handlers in place.
  useEffect(() => {
    if (waiting) return
    const actions = early.current
    early.current = []
    doEarlyActions(actions)
  }, [waiting])
  return waiting && !ready
}
