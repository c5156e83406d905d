import { useSyncExternalStore } from 'react'
import type { StoredChoice } from './stored-choice'

/** A select over one of the window's stored choices (the theme, the roster's layout). */
export function ChoiceSelect<T extends string>({
  choice,
  labels,
  parse,
  className,
  label,
  title,
}: {
  readonly choice: StoredChoice<T>
  /** Every option, in the order shown, with its words. */
  readonly labels: Readonly<Record<T, string>>
  readonly parse: (value: unknown) => T
  readonly className: string
  readonly label: string
  readonly title: string
}) {
  const value = useSyncExternalStore(choice.subscribe, choice.get, choice.get)
  return (
    <select
      className={className}
      aria-label={label}
      title={title}
      value={value}
      onChange={(event) => choice.choose(parse(event.target.value))}
    >
      {(Object.keys(labels) as T[]).map((option) => (
        <option key={option} value={option}>
          {labels[option]}
        </option>
      ))}
    </select>
  )
}
