import { useEffect, useId, useState } from 'react'
import {
  DEFAULT_ENGINE,
  ENGINE_LABELS,
  ENGINES,
  type EngineAvailability,
  type EngineName,
} from '../../shared/engine'
import { useAppStore } from '../store/context'
import { Field } from '../ui/Field'

/**
 * What runs the teammate's turns, for the spawn dialog. The chosen engine says what it needs
 * and costs; one that cannot run here is offered disabled, with why and what to install, and
 * the built-in one stays offered. `value` null: untouched, so `current` is shown (builtin for a
 * new teammate, a re-spawn's own engine) and nothing is sent.
 */
export function EngineField({
  value,
  current,
  onChange,
}: {
  readonly value: EngineName | null
  readonly current: EngineName
  readonly onChange: (engine: EngineName) => void
}) {
  const ids = { select: useId(), message: useId() }
  const getEngines = useAppStore((state) => state.getEngines)
  // Null until the host answers: until then only the built-in engine can be chosen.
  const [engines, setEngines] = useState<readonly EngineAvailability[] | null>(null)
  useEffect(() => {
    let live = true
    getEngines().then(
      (reply) => {
        if (live) setEngines(reply.engines)
      },
      // The built-in engine stays offered; a spawn onto another says itself what is wrong.
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [getEngines])
  const chosen = value ?? current
  const availability = (engine: EngineName) =>
    engines?.find((candidate) => candidate.engine === engine)
  const shown = availability(chosen)
  const missing = (engines ?? []).filter(
    (engine) => !engine.available && engine.engine !== chosen && engine.problem !== null,
  )
  return (
    <Field
      id={ids.select}
      label="Engine"
      messageId={ids.message}
      hint={
        shown === undefined ? undefined : (
          <>
            Needs: {shown.needs} Costs: {shown.costs}
          </>
        )
      }
      // A re-spawn's own engine that cannot run here any more: the spawn would be refused.
      error={shown?.available === false ? shown.problem : null}
      after={missing.map((engine) => (
        <p
          key={engine.engine}
          className="field-note"
          data-testid={`engine-problem-${engine.engine}`}
        >
          {ENGINE_LABELS[engine.engine]} is not available here: {engine.problem}
        </p>
      ))}
    >
      <select
        id={ids.select}
        value={chosen}
        aria-describedby={ids.message}
        onChange={(event) => onChange(event.target.value as EngineName)}
      >
        {ENGINES.map((engine) => {
          const known = availability(engine)
          const usable = engine === DEFAULT_ENGINE || known?.available === true
          return (
            <option key={engine} value={engine} disabled={!usable && engine !== chosen}>
              {ENGINE_LABELS[engine]}
              {known?.available === false ? ' (not available here)' : ''}
            </option>
          )
        })}
      </select>
    </Field>
  )
}
