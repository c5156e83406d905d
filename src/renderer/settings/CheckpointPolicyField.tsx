import { useEffect, useId, useState } from 'react'
import type { CheckpointPolicy } from '../../shared/undo'
import { LEAD } from '../../shared/names'
import { useAppStore } from '../store/context'
import { describeFailure, type CommandFailure } from '../store/failures'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'
import { formatBytes } from '../ui/format'
import { parsePolicy } from './checkpoint-policy'

interface Loaded {
  readonly policy: CheckpointPolicy
  /** What every agent's checkpoints take on disk together (an estimate). */
  readonly bytes: number
  readonly count: number
}

/**
 * The checkpoints kept for undo: how many per agent and for how long (the team's policy), and
 * what they take on disk. Saved on its own, like the sandbox's hosts: it belongs to the team.
 */
export function CheckpointPolicyField() {
  const open = useAppStore((state) => state.workspace !== null)
  const names = useAppStore((state) => Object.keys(state.agents).join('\n'))
  const listCheckpoints = useAppStore((state) => state.listCheckpoints)
  const setPolicy = useCommand(useAppStore((state) => state.setCheckpointPolicy))
  const [loaded, setLoaded] = useState<Loaded | null>(null)
  const [loadError, setLoadError] = useState<CommandFailure | null>(null)
  const [count, setCount] = useState('')
  const [days, setDays] = useState('')
  const [saved, setSaved] = useState(false)
  const ids = { count: useId(), days: useId() }

  useEffect(() => {
    if (!open) return
    let current = true
    const agents = names === '' ? [LEAD] : names.split('\n')
    // The policy is the team's (every answer carries it); the disk use is each agent's.
    void Promise.allSettled(agents.map((name) => listCheckpoints({ name }))).then((answers) => {
      if (!current) return
      const lists = answers.flatMap((answer) =>
        answer.status === 'fulfilled' ? [answer.value] : [],
      )
      const first = lists[0]
      if (first === undefined) {
        const failed = answers.find((answer) => answer.status === 'rejected')
        setLoadError(describeFailure(failed?.reason))
        return
      }
      setLoaded({
        policy: first.policy,
        bytes: lists.reduce((sum, list) => sum + list.bytes, 0),
        count: lists.reduce((sum, list) => sum + list.checkpoints.length, 0),
      })
      setCount(String(first.policy.maxPerAgent))
      setDays(String(first.policy.maxAgeDays))
      setLoadError(null)
    })
    return () => {
      current = false
    }
  }, [open, names, listCheckpoints])

  if (!open) return null
  const parsed = parsePolicy(count, days)
  const changed =
    loaded !== null &&
    parsed.ok &&
    (parsed.policy.maxPerAgent !== loaded.policy.maxPerAgent ||
      parsed.policy.maxAgeDays !== loaded.policy.maxAgeDays)
  return (
    <fieldset className="fieldset" aria-label="Checkpoints for undo">
      <legend>Checkpoints for undo</legend>
      {loaded === null ? (
        loadError === null ? (
          <p className="muted">Reading the checkpoints…</p>
        ) : (
          <InlineError error={loadError} />
        )
      ) : (
        <>
          <p className="field-hint" data-testid="checkpoint-disk">
            One is taken before each turn that may change files. {loaded.count}{' '}
            {loaded.count === 1 ? 'checkpoint takes' : 'checkpoints take'} about{' '}
            {formatBytes(loaded.bytes)} on disk.
          </p>
          <div className="checkpoint-policy">
            <label htmlFor={ids.count}>
              Keep at most
              <input
                id={ids.count}
                inputMode="numeric"
                value={count}
                onChange={(event) => {
                  setCount(event.target.value)
                  setSaved(false)
                }}
              />
              per agent
            </label>
            <label htmlFor={ids.days}>
              for at most
              <input
                id={ids.days}
                inputMode="decimal"
                value={days}
                onChange={(event) => {
                  setDays(event.target.value)
                  setSaved(false)
                }}
              />
              days
            </label>
          </div>
          <InlineError error={setPolicy.error} />
          <div className="form-actions">
            <button
              type="button"
              className="button button-small button-primary"
              disabled={setPolicy.pending || !changed}
              onClick={() => {
                if (!parsed.ok) return
                void setPolicy.run(parsed.policy).then((outcome) => {
                  if (!outcome.ok) return
                  setLoaded({ ...loaded, policy: outcome.value })
                  setSaved(true)
                })
              }}
            >
              {setPolicy.pending ? 'Saving…' : 'Save checkpoint policy'}
            </button>
            {saved && !changed ? <span className="muted">Saved.</span> : null}
            {parsed.ok ? null : (
              <span className="field-error" role="alert">
                {parsed.error}
              </span>
            )}
          </div>
        </>
      )}
    </fieldset>
  )
}
