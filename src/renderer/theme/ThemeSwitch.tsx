import { useSyncExternalStore } from 'react'
import { parseThemePreference, themeController, type ThemePreference } from './theme'

const labels: Readonly<Record<ThemePreference, string>> = {
  system: 'System theme',
  light: 'Light',
  dark: 'Dark',
}

/** Light, dark, or as the system says: applied to every view at once (CSS variables). */
export function ThemeSwitch() {
  const controller = themeController()
  const preference = useSyncExternalStore(controller.subscribe, controller.preference)
  return (
    <select
      className="theme-switch"
      aria-label="Theme"
      title="Light or dark; System follows your computer's setting"
      value={preference}
      onChange={(event) => controller.choose(parseThemePreference(event.target.value))}
    >
      {(Object.keys(labels) as ThemePreference[]).map((option) => (
        <option key={option} value={option}>
          {labels[option]}
        </option>
      ))}
    </select>
  )
}
