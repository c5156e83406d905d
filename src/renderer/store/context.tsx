import { createContext, useContext, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { AppState, AppStore } from './store'

const StoreContext = createContext<AppStore | null>(null)

export function StoreProvider({
  store,
  children,
}: {
  readonly store: AppStore
  readonly children: ReactNode
}) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>
}

/** The store itself, for transient subscriptions and for actions called outside render. */
export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext)
  if (store === null) throw new Error('useAppStore needs a <StoreProvider> above it')
  return store
}

/** A narrow slice of the state; the component re-renders only when that slice changes. */
export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector)
}
