import { useEffect, useId, useState } from 'react'
import type { Params } from '../../shared/contract'
import {
  DEFAULT_CAP_USD,
  MISSED_POLICIES,
  OVERLAP_POLICIES,
  parseTime,
  type MissedPolicy,
  type OverlapPolicy,
} from '../../shared/schedules'
import { parseDuration } from '../../shared/duration'
import { useAppStore } from '../store/context'
import { InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { useCommand } from '../ui/useCommand'

type WhenKind = 'in' | 'at' | 'every' | 'cron'

const WHEN_LABELS: Record<WhenKind, string> = {
  in: 'Once, after',
  at: 'Once, at',
  every: 'Every',
  cron: 'Cron',
}
const WHEN_HINTS: Record<WhenKind, string> = {
  in: 'A duration: 30s, 10m, 2h, 1d, 1h30m.',
  at: 'HH:MM (the next one, your time) or 2026-12-24T09:00.',
  every: 'A duration of at least 1m: 15m, 1h, 1d.',
  cron: 'minute hour day-of-month month day-of-week, your time: 0 9 * * 1-5.',
}
const WHEN_PLACEHOLDERS: Record<WhenKind, string> = {
  in: '30m',
  at: '09:00',
  every: '1h',
  cron: '0 9 * * 1-5',
}
const MISSED_LABELS: Record<MissedPolicy, string> = {
  'run-once': 'run once at the next start',
  skip: 'skip them',
}
const OVERLAP_LABELS: Record<OverlapPolicy, string> = {
  wait: 'wait for it to finish',
  skip: 'skip this run',
}

/** What the fields give, checked here as the app checks them; a problem is told at its field. */
function inputOf(fields: Fields): { input: Params<'addSchedule'> } | { problem: string } {
  let when: Params<'addSchedule'>['when']
  const text = fields.whenText.trim()
  if (fields.whenKind === 'cron') when = { type: 'cron', cron: text }
  else if (fields.whenKind === 'at') {
    const time = parseTime(text, Date.now())
    if ('problem' in time) return { problem: time.problem }
    when = { type: 'at', at: time.at }
  } else {
    const seconds = parseDuration(text)
    if (seconds === null)
      return { problem: `"${text}" is not a duration: write 30s, 10m, 2h, 1d or 1h30m.` }
    when = fields.whenKind === 'in' ? { type: 'in', seconds } : { type: 'every', seconds }
  }
  const usd = fields.usd.trim() === '' ? null : Number(fields.usd)
  const tokens = fields.tokens.trim() === '' ? null : Number(fields.tokens)
  if (usd !== null && !(Number.isFinite(usd) && usd > 0))
    return { problem: 'The dollar cap is an amount above 0, such as 5 or 0.50.' }
  if (tokens !== null && !(Number.isSafeInteger(tokens) && tokens > 0))
    return { problem: 'The token cap is a whole number above 0.' }
  if (usd === null && tokens === null)
    return { problem: 'Every run needs a cap: give dollars, tokens, or both.' }
  return {
    input: {
      name: fields.name.trim(),
      when,
      prompt: fields.prompt,
      template: fields.template === '' ? null : fields.template,
      usd,
      tokens,
      missed: fields.missed,
      overlap: fields.overlap,
    },
  }
}

interface Fields {
  readonly name: string
  readonly whenKind: WhenKind
  readonly whenText: string
  readonly prompt: string
  readonly template: string
  readonly usd: string
  readonly tokens: string
  readonly missed: MissedPolicy
  readonly overlap: OverlapPolicy
}

const EMPTY: Fields = {
  name: '',
  whenKind: 'every',
  whenText: '',
  prompt: '',
  template: '',
  usd: String(DEFAULT_CAP_USD),
  tokens: '',
  missed: 'run-once',
  overlap: 'wait',
}

/** A new schedule: every field of `agent-teams schedule add`, checked before it is sent. */
export function ScheduleForm({
  onDone,
  onCancel,
}: {
  readonly onDone: (message: string) => void
  readonly onCancel: () => void
}) {
  const addSchedule = useAppStore((state) => state.addSchedule)
  const listTemplates = useAppStore((state) => state.listTemplates)
  const add = useCommand(addSchedule)
  const [fields, setFields] = useState<Fields>(EMPTY)
  const [problem, setProblem] = useState<string | null>(null)
  const [templates, setTemplates] = useState<readonly string[]>([])
  const id = useId()
  const ids = {
    name: `${id}-name`,
    when: `${id}-when`,
    whenKind: `${id}-when-kind`,
    prompt: `${id}-prompt`,
    template: `${id}-template`,
    usd: `${id}-usd`,
    tokens: `${id}-tokens`,
    missed: `${id}-missed`,
    overlap: `${id}-overlap`,
  }
  const set = <K extends keyof Fields>(key: K, value: Fields[K]): void =>
    setFields((current) => ({ ...current, [key]: value }))

  useEffect(() => {
    let live = true
    listTemplates()
      .then((listing) => {
        if (live) setTemplates(listing.templates.map((entry) => entry.template.name))
      })
      .catch(() => undefined)
    return () => {
      live = false
    }
  }, [listTemplates])

  async function submit(): Promise<void> {
    const checked = inputOf(fields)
    if ('problem' in checked) {
      setProblem(checked.problem)
      return
    }
    setProblem(null)
    const outcome = await add.run(checked.input)
    if (outcome.ok) onDone(`Added the schedule ${outcome.value.schedule.name}.`)
  }

  return (
    <form
      className="schedule-form"
      aria-label="New schedule"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <h3 className="small">New schedule</h3>
      <div className="schedule-form-row">
        <Field id={ids.name} label="Name" hint="Lowercase letters, digits, - and _.">
          <input
            id={ids.name}
            value={fields.name}
            placeholder="nightly"
            data-autofocus
            onChange={(event) => set('name', event.target.value)}
          />
        </Field>
        <Field id={ids.when} label="When" hint={WHEN_HINTS[fields.whenKind]}>
          <div className="schedule-when">
            <select
              id={ids.whenKind}
              aria-label="Kind of time"
              value={fields.whenKind}
              onChange={(event) => set('whenKind', event.target.value as WhenKind)}
            >
              {(Object.keys(WHEN_LABELS) as WhenKind[]).map((kind) => (
                <option key={kind} value={kind}>
                  {WHEN_LABELS[kind]}
                </option>
              ))}
            </select>
            <input
              id={ids.when}
              value={fields.whenText}
              placeholder={WHEN_PLACEHOLDERS[fields.whenKind]}
              onChange={(event) => set('whenText', event.target.value)}
            />
          </div>
        </Field>
      </div>
      <Field id={ids.prompt} label="Prompt to the lead">
        <textarea
          id={ids.prompt}
          rows={3}
          value={fields.prompt}
          placeholder="Run the tests, fix what fails, and sum up."
          onChange={(event) => set('prompt', event.target.value)}
        />
      </Field>
      <div className="schedule-form-row">
        <Field
          id={ids.usd}
          label="Cap in dollars"
          hint="Empty: none. A model with no known price needs a token cap."
        >
          <input
            id={ids.usd}
            inputMode="decimal"
            value={fields.usd}
            onChange={(event) => set('usd', event.target.value)}
          />
        </Field>
        <Field id={ids.tokens} label="Cap in tokens" hint="Leave empty for none.">
          <input
            id={ids.tokens}
            inputMode="numeric"
            value={fields.tokens}
            onChange={(event) => set('tokens', event.target.value)}
          />
        </Field>
        <Field id={ids.template} label="Template" hint="Applied first to a team with no members.">
          <select
            id={ids.template}
            value={fields.template}
            onChange={(event) => set('template', event.target.value)}
          >
            <option value="">none</option>
            {templates.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="schedule-form-row">
        <Field id={ids.missed} label="Runs missed while closed">
          <select
            id={ids.missed}
            value={fields.missed}
            onChange={(event) => set('missed', event.target.value as MissedPolicy)}
          >
            {MISSED_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {MISSED_LABELS[policy]}
              </option>
            ))}
          </select>
        </Field>
        <Field id={ids.overlap} label="Due while a run works">
          <select
            id={ids.overlap}
            value={fields.overlap}
            onChange={(event) => set('overlap', event.target.value as OverlapPolicy)}
          >
            {OVERLAP_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {OVERLAP_LABELS[policy]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <InlineError
        error={problem === null ? add.error : { code: 'invalid-argument', message: problem }}
      />
      <DialogFooter
        cancel={{ label: 'Cancel', onClick: onCancel }}
        action={{
          label: 'Add schedule',
          disabled:
            fields.name.trim() === '' ||
            fields.whenText.trim() === '' ||
            fields.prompt.trim() === '',
          pending: add.pending,
          pendingLabel: 'Adding…',
        }}
      />
    </form>
  )
}
