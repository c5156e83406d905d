import { createStoredChoice, pageStorage, pageWindow, type StoredChoice } from '../stored-choice'

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
export interface ThemeController extends StoredChoice<ThemePreference> {
  /** Applies the theme and follows the system's changes until the returned function is called. */
  start(): () => void
}

/** Without a window (the first view, rendered on the host) the choice reads as 'system'. */
export function createThemeController(window: Window | undefined): ThemeController {
  const media = typeof window?.matchMedia === 'function' ? window.matchMedia(LIGHT_QUERY) : null
  const apply = () => {
    if (window === undefined) return
    window.document.documentElement.dataset['theme'] = resolveTheme(
      choice.get(),
      media?.matches ?? false,
    )
  }
  const choice = createStoredChoice(pageStorage(window), STORAGE_KEY, parseThemePreference, apply)
  return {
    ...choice,
    start() {
      apply()
      media?.addEventListener('change', apply)
      return () => media?.removeEventListener('change', apply)
    },
  }
}

let shared: ThemeController | null = null

/** The page's one controller (the header's switch and main.tsx share it). */
export function themeController(): ThemeController {
  shared ??= createThemeController(pageWindow())
  return shared
}
