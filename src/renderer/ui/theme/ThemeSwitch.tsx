import { ChoiceSelect } from '../ChoiceSelect'
import { parseThemePreference, themeController, type ThemePreference } from './theme'

const labels: Readonly<Record<ThemePreference, string>> = {
  system: 'System theme',
  light: 'Light',
  dark: 'Dark',
}

/** Light, dark, or as the system says: applied to every view at once (CSS variables). */
export function ThemeSwitch() {
  return (
    <ChoiceSelect
      choice={themeController()}
      labels={labels}
      parse={parseThemePreference}
      className="theme-switch"
      label="Theme"
      title="Light or dark; System follows your computer's setting"
    />
  )
}
