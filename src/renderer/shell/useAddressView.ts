import { useEffect } from 'react'
import type { AppStore } from '../store/store'
import { hashOf, viewFromHash } from '../store/url'

/**
 * Keeps the open agent and tab in the address (see store/url.ts): read once at start and on
 * every hash the person types, written (replacing the entry, so Back leaves the app as before)
 * whenever they change.
 */
export function useAddressView(store: AppStore): void {
  useEffect(() => {
    const apply = (): void => {
      const wanted = viewFromHash(window.location.hash)
      if (wanted === null) return
      const { selected, view } = store.getState()
      if (wanted.selected !== selected || wanted.view !== view)
        store.setState({ selected: wanted.selected, view: wanted.view })
    }
    const write = (): void => {
      const { selected, view } = store.getState()
      const hash = hashOf(selected, view)
      if (window.location.hash !== hash) window.history.replaceState(window.history.state, '', hash)
    }
    apply()
    write()
    const unsubscribe = store.subscribe((state, previous) => {
      if (state.selected !== previous.selected || state.view !== previous.view) write()
    })
    window.addEventListener('hashchange', apply)
    return () => {
      unsubscribe()
      window.removeEventListener('hashchange', apply)
    }
  }, [store])
}
