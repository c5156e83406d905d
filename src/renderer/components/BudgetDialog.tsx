import { useId, useState } from 'react'
import { LEAD } from '../../shared/names'
import { totalTokens } from '../../shared/usage'
import { useAppStore } from '../store/context'
import type { AppState } from '../store/store'
import type { Budget } from '../store/state'
import { Dialog, InlineError } from './Dialog'
import { formatNumber } from './format'
import { useCommand } from './useCommand'
import { own } from '../../shared/own'

/** What has been spent against a budget: one agent's, or the whole team's. */
interface Spend {
  readonly tokens: number
  readonly rounds: number
}

function spendOf(state: AppState, name: string | null): Spend {
  const names = name === null ? state.order : [name]
  let tokens = 0
  let rounds = 0
  for (const each of names) {
    const agent = own(state.agents, each)
    if (agent === undefined) continue
    tokens += totalTokens(agent.usage)
    rounds += agent.rounds
  }
  return { tokens, rounds }
}

/** A limit as typed: empty is no limit; "50,000" and "50 000" are 50000. */
export function parseLimit(text: string): { ok: true; value: number | null } | { ok: false } {
  const digits = text.replace(/[\s,_]/g, '')
  if (digits === '') return { ok: true, value: null }
  if (!/^\d+$/.test(digits)) return { ok: false }
  const value = Number(digits)
  return Number.isSafeInteger(value) && value >= 1 ? { ok: true, value } : { ok: false }
}

/** Sets an agent's token and round budget, or the team's; an empty field lifts the limit. */
export function BudgetDialog({ name }: { readonly name: string | null }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const setBudget = useAppStore((state) => state.setBudget)
  const budget = useAppStore((state): Budget | null =>
    name === null ? state.teamBudget : (own(state.agents, name)?.budget ?? null),
  )
  const spentTokens = useAppStore((state) => spendOf(state, name).tokens)
  const spentRounds = useAppStore((state) => spendOf(state, name).rounds)
  const [tokens, setTokens] = useState(budget?.tokens?.toString() ?? '')
  const [rounds, setRounds] = useState(budget?.rounds?.toString() ?? '')
  const [submitted, setSubmitted] = useState(false)
  const command = useCommand(setBudget)
  const ids = { tokens: useId(), rounds: useId(), tokensHint: useId(), roundsHint: useId() }
  const parsedTokens = parseLimit(tokens)
  const parsedRounds = parseLimit(rounds)
  const who = name === null ? 'the team' : name === LEAD ? 'the lead' : name

  async function submit(): Promise<void> {
    setSubmitted(true)
    if (!parsedTokens.ok || !parsedRounds.ok || command.pending) return
    const outcome = await command.run({
      name,
      tokens: parsedTokens.value,
      rounds: parsedRounds.value,
    })
    if (outcome.ok) closeDialog()
  }

  if (budget === null) return null
  const invalid = 'Enter a whole number of at least 1, or leave it empty for no limit.'
  return (
    <Dialog
      title={name === null ? 'Team budget' : `Budget of ${who}`}
      description={
        name === null
          ? 'Limits for all agents together. When one is reached, every agent pauses with the reason until you raise it.'
          : `When a limit is reached, ${who} pauses with the reason until you raise it; raising it lets it go on.`
      }
      onClose={closeDialog}
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        <div className="field">
          <label htmlFor={ids.tokens}>Token budget</label>
          <input
            id={ids.tokens}
            data-autofocus
            inputMode="numeric"
            autoComplete="off"
            value={tokens}
            placeholder="no limit"
            aria-invalid={submitted && !parsedTokens.ok}
            aria-describedby={ids.tokensHint}
            onChange={(event) => setTokens(event.target.value)}
          />
          <p
            id={ids.tokensHint}
            className={submitted && !parsedTokens.ok ? 'field-error' : 'field-hint'}
          >
            {submitted && !parsedTokens.ok
              ? invalid
              : `Input and output tokens. Used so far: ${formatNumber(spentTokens)}. Empty: no limit.`}
          </p>
        </div>
        <div className="field">
          <label htmlFor={ids.rounds}>Round budget</label>
          <input
            id={ids.rounds}
            inputMode="numeric"
            autoComplete="off"
            value={rounds}
            placeholder="no limit"
            aria-invalid={submitted && !parsedRounds.ok}
            aria-describedby={ids.roundsHint}
            onChange={(event) => setRounds(event.target.value)}
          />
          <p
            id={ids.roundsHint}
            className={submitted && !parsedRounds.ok ? 'field-error' : 'field-hint'}
          >
            {submitted && !parsedRounds.ok
              ? invalid
              : `Model calls. Used so far: ${formatNumber(spentRounds)}. Empty: no limit.`}
          </p>
        </div>
        <InlineError error={command.error} />
        <div className="form-actions">
          <button type="button" className="button" onClick={closeDialog}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={command.pending}>
            {command.pending ? 'Saving…' : 'Save budget'}
          </button>
        </div>
      </form>
    </Dialog>
  )
}
