/**
 * A choice about this window's look (the theme, the roster's layout): kept in the page's storage
 * across reloads, never in the team or the workspace. React reads it with useSyncExternalStore.
 */
export interface StoredChoice<T extends string> {
  get(): T
  choose(next: T): void
  subscribe(listener: () => void): () => void
}

export function createStoredChoice<T extends string>(
  storage: Storage | null,
  key: string,
  parse: (value: unknown) => T,
  /** Runs after each choice is kept and before the subscribers hear of it. */
  applied?: (choice: T) => void,
): StoredChoice<T> {
  const listeners = new Set<() => void>()
  let current = parse(read(storage, key))
  return {
    get: () => current,
    choose(next) {
      current = next
      try {
        storage?.setItem(key, next)
      } catch {
        // Storage refused (a private window): the choice holds until the page reloads.
      }
      applied?.(next)
      for (const listener of listeners) listener()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

function read(storage: Storage | null, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null
  } catch {
    return null
  }
}

/**
 * The page's window, or none where there is no page: the first view is rendered on the host
 * (src/renderer/first-view/), where the choices read as their defaults.
 */
export function pageWindow(): Window | undefined {
  return typeof window === 'undefined' ? undefined : window
}

/** The window's localStorage, or none where the page may not use it. */
export function pageStorage(target: Window | undefined): Storage | null {
  try {
    return target?.localStorage ?? null
  } catch {
    return null
  }
}
