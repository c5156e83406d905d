/** What the person chose: follow the system's light or dark setting, or one of them always. */
export type ThemePreference = 'system' | 'light' | 'dark'
export type Theme = 'light' | 'dark'

export const THEME_PREFERENCES: readonly ThemePreference[] = ['system', 'light', 'dark']

/** Where the choice is kept: a setting of this window's look, not of the team or workspace. */
const STORAGE_KEY = 'agent-teams.theme'
const LIGHT_QUERY = '(prefers-color-scheme: light)'

export function parseThemePreference(value: unknown): ThemePreference {
  return THEME_PREFERENCES.find((preference) => preference === value) ?? 'system'
}

export function resolveTheme(preference: ThemePreference, systemIsLight: boolean): Theme {
  if (preference === 'system') return systemIsLight ? 'light' : 'dark'
  return preference
}

/** The theme on the page, its choice, and the system's setting it may follow. */
export interface ThemeController {
  preference(): ThemePreference
  choose(preference: ThemePreference): void
  /** React's useSyncExternalStore subscription. */
  subscribe(listener: () => void): () => void
  /** Applies the theme and follows the system's changes until the returned function is called. */
  start(): () => void
}

export function createThemeController(window: Window): ThemeController {
  const listeners = new Set<() => void>()
  const media = typeof window.matchMedia === 'function' ? window.matchMedia(LIGHT_QUERY) : null
  let preference = parseThemePreference(readStored(window))
  const apply = () => {
    window.document.documentElement.dataset['theme'] = resolveTheme(
      preference,
      media?.matches ?? false,
    )
  }
  return {
    preference: () => preference,
    choose(next) {
      preference = next
      try {
        window.localStorage.setItem(STORAGE_KEY, next)
      } catch {
        // Storage refused (a private window): the choice holds until the page reloads.
      }
      apply()
      for (const listener of listeners) listener()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    start() {
      apply()
      media?.addEventListener('change', apply)
      return () => media?.removeEventListener('change', apply)
    },
  }
}

function readStored(window: Window): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}

let shared: ThemeController | null = null

/** The page's one controller (the header's switch and main.tsx share it). */
export function themeController(): ThemeController {
  shared ??= createThemeController(window)
  return shared
}
