import { createContext, useContext } from 'react'

/**
 * Called just before a row changes its own height on a click (a tool card opening): the
 * transcript keeps that row where it is on screen instead of keeping the bottom in place.
 */
export const ScrollHoldContext = createContext<() => void>(() => {})

export function useScrollHold(): () => void {
  return useContext(ScrollHoldContext)
}
