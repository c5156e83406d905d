import { useLayoutEffect, useState } from 'react'
import { FIRST_VIEW_ID } from '../../shared/first-view'

function firstViewElement(): HTMLElement | null {
  return typeof document === 'undefined' ? null : document.getElementById(FIRST_VIEW_ID)
}

/**
 * The host's first view (src/shared/first-view.ts) stays on the page until the app can draw
 * the same (`ready`); then the app draws and the first view goes, in one commit, so the page
 * never shows two teams nor a blank frame. Returns true while the app should draw nothing.
 */
export function useFirstViewHandOver(ready: boolean): boolean {
  const [waiting, setWaiting] = useState(() => firstViewElement() !== null)
  // Once handed over it stays so: the app's own loading states are its own from then on.
  if (waiting && ready) setWaiting(false)
  useLayoutEffect(() => {
    if (!waiting) firstViewElement()?.remove()
  }, [waiting])
  return waiting && !ready
}
