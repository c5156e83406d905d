import { useId, useState } from 'react'
import type { Params, SettingsView } from '../../shared/contract'
import { assertNever } from '../../shared/errors'
import { demoSpeedSchema, type DemoSpeed } from '../../shared/demo-speed'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { formatNumber } from '../ui/format'
import { formatUsd } from '../../shared/cost'
import { PricesField } from './PricesField'
import { SandboxField } from './SandboxField'
import { ReactionsField } from './ReactionsField'
import { CheckpointPolicyField } from './CheckpointPolicyField'
import { parsePriceRows, rowsFromPrices, samePrices, type PriceRow } from './price-rows'
import { useCommand } from '../ui/useCommand'

function keySourceText(settings: SettingsView): string {
  switch (settings.apiKeySource) {
    case 'environment':
      return 'An API key is set, from the ANTHROPIC_API_KEY environment variable.'
    case 'settings':
      return settings.secretStorage === 'os'
        ? 'An API key is saved in the system’s secret store.'
        : 'An API key is saved in a plain file on this computer.'
    case 'none':
      return 'No API key is set.'
    default:
      return assertNever(settings.apiKeySource, 'key source')
  }
}

/** The model settings: the key never comes back to the window, only whether one is set. */
export function SettingsDialog() {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const settings = useAppStore((state) => state.settings)
  if (settings === null) {
    return (
      <Dialog title="Settings" onClose={closeDialog}>
        <p className="muted">Reading the settings…</p>
      </Dialog>
    )
  }
  return <SettingsForm settings={settings} onDone={closeDialog} />
}

/** The field's tokens: null when empty, undefined when it is not a whole number. */
function windowTokens(text: string): number | null | undefined {
  const digits = text.replace(/[\s,_]/g, '')
  if (digits === '') return null
  return /^\d+$/.test(digits) ? Number(digits) : undefined
}

function SettingsForm({
  settings,
  onDone,
}: {
  readonly settings: SettingsView
  readonly onDone: () => void
}) {
  const saveSettings = useAppStore((state) => state.saveSettings)
  const command = useCommand(saveSettings)
  const [apiKey, setApiKey] = useState('')
  const [baseURL, setBaseURL] = useState(settings.baseURL ?? '')
  const [model, setModel] = useState(settings.model)
  const [offline, setOffline] = useState(settings.useOfflineModel)
  const [wakes, setWakes] = useState(settings.leadWakesOnMessages)
  const [speed, setSpeed] = useState<DemoSpeed>(settings.demoSpeed)
  const [contextWindow, setContextWindow] = useState(settings.contextWindow?.toString() ?? '')
  const [windowError, setWindowError] = useState<string | null>(null)
  const [priceRows, setPriceRows] = useState<PriceRow[]>(() => rowsFromPrices(settings.prices))
  const [priceError, setPriceError] = useState<string | null>(null)
  const ids = {
    key: useId(),
    url: useId(),
    model: useId(),
    window: useId(),
    offline: useId(),
    wakes: useId(),
    speed: useId(),
    note: useId(),
  }
  const plainFile = settings.secretStorage === 'plain-file'

  /** The change to save, or null when a price is not valid (its error is then shown). */
  function change(): Params<'saveSettings'> | null {
    const prices = parsePriceRows(priceRows)
    setPriceError(prices.ok ? null : prices.error)
    if (!prices.ok) return null
    const result: Params<'saveSettings'> = {}
    if (!samePrices(prices.prices, settings.prices)) result.prices = prices.prices
    if (apiKey.trim()) result.apiKey = apiKey.trim()
    const url = baseURL.trim()
    if (url !== (settings.baseURL ?? '')) result.baseURL = url === '' ? null : url
    if (model.trim() && model.trim() !== settings.model) result.model = model.trim()
    if (offline !== settings.useOfflineModel) result.useOfflineModel = offline
    if (wakes !== settings.leadWakesOnMessages) result.leadWakesOnMessages = wakes
    if (speed !== settings.demoSpeed) result.demoSpeed = speed
    const tokens = windowTokens(contextWindow)
    if (tokens !== undefined && tokens !== settings.contextWindow) result.contextWindow = tokens
    return result
  }

  async function save(params: Params<'saveSettings'>): Promise<void> {
    if (Object.keys(params).length === 0) {
      onDone()
      return
    }
    const outcome = await command.run(params)
    if (outcome.ok) onDone()
  }

  return (
    <Dialog title="Settings" onClose={onDone}>
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          // Checked here: NaN would cross a JSON transport as null, which clears the setting.
          const invalid = windowTokens(contextWindow) === undefined
          setWindowError(
            invalid ? 'The context window is a whole number of tokens, or empty.' : null,
          )
          const params = change()
          if (!invalid && params !== null) void save(params)
        }}
      >
        <fieldset className="fieldset">
          <legend>Anthropic API</legend>
          <p className={settings.apiKeySet ? 'key-state key-set' : 'key-state key-missing'}>
            <span className="key-dot" aria-hidden="true" />
            {keySourceText(settings)}
          </p>
          <Field
            id={ids.key}
            label="API key"
            hint={
              plainFile
                ? undefined
                : 'Kept in the system’s secret store; it never reaches this window.'
            }
            after={
              settings.apiKeySource === 'settings' ? (
                <button
                  type="button"
                  className="link-button link-danger"
                  onClick={() => void save({ apiKey: null })}
                >
                  Remove the saved key
                </button>
              ) : null
            }
          >
            <input
              id={ids.key}
              data-autofocus
              type="password"
              autoComplete="off"
              spellCheck={false}
              value={apiKey}
              placeholder={settings.apiKeySet ? 'Enter a new key to replace it' : 'sk-ant-…'}
              aria-describedby={plainFile ? ids.note : undefined}
              onChange={(event) => setApiKey(event.target.value)}
            />
            {plainFile ? (
              <p id={ids.note} className="storage-note" role="note">
                <strong>Before you save:</strong>{' '}
                {settings.secretStorageNote ??
                  'This system offers no secret store, so the key is kept in a plain file.'}
              </p>
            ) : null}
          </Field>
          <Field id={ids.url} label="Base URL">
            <input
              id={ids.url}
              type="url"
              spellCheck={false}
              value={baseURL}
              placeholder="https://api.anthropic.com (or any compatible endpoint)"
              onChange={(event) => setBaseURL(event.target.value)}
            />
          </Field>
          <Field id={ids.model} label="Default model">
            <input
              id={ids.model}
              spellCheck={false}
              value={model}
              onChange={(event) => setModel(event.target.value)}
            />
          </Field>
          <Field
            id={ids.window}
            label="Context window (tokens)"
            hint="For other models: agents compact their conversation before it fills 75 % of this. An endpoint that says a prompt is too long corrects it by itself."
          >
            <input
              id={ids.window}
              inputMode="numeric"
              spellCheck={false}
              value={contextWindow}
              placeholder="200,000 for Claude models"
              aria-invalid={windowError !== null}
              onChange={(event) => setContextWindow(event.target.value)}
            />
            <InlineError
              error={windowError === null ? null : { code: 'error', message: windowError }}
            />
          </Field>
        </fieldset>
        <fieldset className="fieldset">
          <legend>Team</legend>
          <label className="toggle" htmlFor={ids.offline}>
            <input
              id={ids.offline}
              type="checkbox"
              checked={offline}
              onChange={(event) => setOffline(event.target.checked)}
            />
            <span className="toggle-text">
              <span>Use the offline model</span>
              <span className="field-hint">
                A scripted model on this computer: watch a team work without a key or a network.
              </span>
            </span>
          </label>
          <Field id={ids.speed} label="Offline model speed">
            <select
              id={ids.speed}
              value={speed}
              onChange={(event) => setSpeed(demoSpeedSchema.parse(event.target.value))}
            >
              <option value="slow">Slow: easy to follow</option>
              <option value="normal">Normal</option>
              <option value="instant">Instant</option>
            </select>
          </Field>
          <label className="toggle" htmlFor={ids.wakes}>
            <input
              id={ids.wakes}
              type="checkbox"
              checked={wakes}
              onChange={(event) => setWakes(event.target.checked)}
            />
            <span className="toggle-text">
              <span>The lead wakes on teammates’ messages</span>
              <span className="field-hint">
                Off: the lead reads its inbox only when you write to it.
              </span>
            </span>
          </label>
        </fieldset>
        <PricesField
          rows={priceRows}
          onChange={setPriceRows}
          newModel={model.trim() || settings.model}
          error={priceError}
        />
        <TeamBudgetField />
        <SandboxField />
        <TeamReactionsField />
        <CheckpointPolicyField />
        <InlineError error={command.error} />
        <DialogFooter
          cancel={{ label: 'Cancel', onClick: onDone }}
          action={{ label: 'Save', pending: command.pending, pendingLabel: 'Saving…' }}
        />
      </form>
    </Dialog>
  )
}

/** The open team's reactions: only with a team open. */
function TeamReactionsField() {
  const open = useAppStore((state) => state.workspace !== null)
  return open ? <ReactionsField /> : null
}

/** The open team's budget: all agents together; set in its own dialog. */
function TeamBudgetField() {
  const open = useAppStore((state) => state.workspace !== null)
  const budget = useAppStore((state) => state.teamBudget)
  const openDialog = useAppStore((state) => state.openDialog)
  if (!open) return null
  const limits = [
    budget.tokens === null ? null : `${formatNumber(budget.tokens)} tokens`,
    budget.rounds === null ? null : `${formatNumber(budget.rounds)} model calls`,
    budget.usd === null ? null : formatUsd(budget.usd),
  ].filter((limit) => limit !== null)
  return (
    <fieldset className="fieldset">
      <legend>Team budget</legend>
      <p className="field-hint">
        {limits.length === 0
          ? 'No limit: the team may use any number of tokens, model calls and dollars.'
          : `At most ${limits.join(' and ')} for all agents together; when reached, they pause.`}
      </p>
      <div>
        <button
          type="button"
          className="button button-small"
          onClick={() => openDialog({ kind: 'budget', name: null })}
        >
          Set team budget…
        </button>
      </div>
    </fieldset>
  )
}
