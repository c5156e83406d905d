import { useId, useMemo, useState } from 'react'
import { MAX_BUDGET_USD } from '../../shared/budget'
import { formatCost, formatUsd } from '../../shared/cost'
import { LEAD } from '../../shared/names'
import { totalTokens } from '../../shared/usage'
import { useAppStore } from '../store/context'
import type { AppState } from '../store/store'
import type { Budget } from '../store/state'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { formatNumber } from '../ui/format'
import { pricesOf, teamUsageByModel } from '../store/costs'
import { priceFor } from '../../shared/prices'
import { useCost } from '../ui/useCost'
import { useCommand } from '../ui/useCommand'
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

/** A dollar limit as typed: empty is no limit; "$5", "5" and "0.25" are amounts of dollars. */
export function parseUsd(text: string): { ok: true; value: number | null } | { ok: false } {
  const amount = text.replace(/[\s,_]/g, '').replace(/^\$/, '')
  if (amount === '') return { ok: true, value: null }
  if (!/^(\d+(\.\d{0,6})?|\.\d{1,6})$/.test(amount)) return { ok: false }
  const value = Number(amount)
  return Number.isFinite(value) && value > 0 && value <= MAX_BUDGET_USD
    ? { ok: true, value }
    : { ok: false }
}

/** Sets an agent's token, round and dollar budget, or the team's; an empty field lifts the limit. */
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
  const [usd, setUsd] = useState(budget?.usd?.toString() ?? '')
  const [submitted, setSubmitted] = useState(false)
  const command = useCommand(setBudget)
  const ids = {
    tokens: useId(),
    rounds: useId(),
    usd: useId(),
    tokensHint: useId(),
    roundsHint: useId(),
    usdHint: useId(),
  }
  const parsedTokens = parseLimit(tokens)
  const parsedRounds = parseLimit(rounds)
  const parsedUsd = parseUsd(usd)
  const agents = useAppStore((state) => state.agents)
  const order = useAppStore((state) => state.order)
  const usage = useMemo(
    () =>
      name === null ? teamUsageByModel({ agents, order }) : (own(agents, name)?.usageByModel ?? []),
    [agents, order, name],
  )
  const cost = useCost(usage)
  // The model of its next call counts too: the runtime pauses on it before it spends anything.
  const prices = useAppStore(pricesOf)
  const nextModel = useAppStore((state) =>
    name === null ? null : (own(state.agents, name)?.model ?? state.settings?.model ?? null),
  )
  const unpriced =
    nextModel !== null && priceFor(nextModel, prices) === null && !cost.unpriced.includes(nextModel)
      ? [...cost.unpriced, nextModel]
      : cost.unpriced
  const who = name === null ? 'the team' : name === LEAD ? 'the lead' : name

  async function submit(): Promise<void> {
    setSubmitted(true)
    if (!parsedTokens.ok || !parsedRounds.ok || !parsedUsd.ok || command.pending) return
    const outcome = await command.run({
      name,
      tokens: parsedTokens.value,
      rounds: parsedRounds.value,
      usd: parsedUsd.value,
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
        <Field
          id={ids.tokens}
          label="Token budget"
          messageId={ids.tokensHint}
          hint={`Input and output tokens. Used so far: ${formatNumber(spentTokens)}. Empty: no limit.`}
          error={submitted && !parsedTokens.ok ? invalid : null}
        >
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
        </Field>
        <Field
          id={ids.rounds}
          label="Round budget"
          messageId={ids.roundsHint}
          hint={`Model calls. Used so far: ${formatNumber(spentRounds)}. Empty: no limit.`}
          error={submitted && !parsedRounds.ok ? invalid : null}
        >
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
        </Field>
        <Field
          id={ids.usd}
          label="Dollar budget"
          messageId={ids.usdHint}
          hint={`US dollars, at the prices in Settings. Spent so far: ${formatCost(cost)}${cost.unpriced.length === 0 ? '' : ` (${formatUsd(cost.usd, true)} priced)`}. Empty: no limit.`}
          error={
            submitted && !parsedUsd.ok
              ? `Enter an amount of US dollars above 0 and at most ${formatNumber(MAX_BUDGET_USD)} (e.g. 5 or 0.25), or leave it empty for no limit.`
              : null
          }
          after={
            unpriced.length > 0 && usd.trim() !== '' ? (
              <p className="field-error" role="note" data-testid="usd-unenforceable">
                No price is known for {unpriced.join(', ')}: a dollar budget cannot be enforced for
                it, so {name === null ? 'the agents pause' : `${who} pauses`} until you set a price
                in Settings &gt; Prices or leave this empty.
              </p>
            ) : null
          }
        >
          <input
            id={ids.usd}
            inputMode="decimal"
            autoComplete="off"
            value={usd}
            placeholder="no limit"
            aria-invalid={submitted && !parsedUsd.ok}
            aria-describedby={ids.usdHint}
            onChange={(event) => setUsd(event.target.value)}
          />
        </Field>
        <InlineError error={command.error} />
        <DialogFooter
          cancel={{ label: 'Cancel', onClick: closeDialog }}
          action={{ label: 'Save budget', pending: command.pending, pendingLabel: 'Saving…' }}
        />
      </form>
    </Dialog>
  )
}
