import { createContext, useContext } from 'react'

/**
 * True while rendering the first view on the host (render.tsx). A component that needs the
 * page to lay itself out (the virtualized transcript) renders its plain form there instead.
 */
export const FirstViewContext = createContext(false)

export function useIsFirstView(): boolean {
  return useContext(FirstViewContext)
}
