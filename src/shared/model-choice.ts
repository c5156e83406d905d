import { z } from 'zod'
import { TeamError } from './errors'

/**
 * The model and the extended thinking an agent runs with, chosen per agent (at spawn, by the
 * lead's `spawn_teammate`, the CLI, or changed later) and kept in `.team/config.json`. Every
 * way in is checked by these rules, so a hostile value never reaches a request.
 */

/**
 * Model ids as Anthropic-compatible endpoints spell them: `claude-sonnet-4-5`,
 * `anthropic.claude-3-5-sonnet-20241022-v2:0`, `claude-3-5-sonnet-v2@20241022`,
 * `anthropic/claude-3.5-sonnet`.
 */
export const MODEL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}$/
export const MODEL_ID_RULE =
  'a model id is 1-200 characters: letters, digits, ".", "_", "-", ":", "@" and "/", starting with a letter or digit'

/** The API's lower bound on `thinking.budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024
/** Above every current model's output limit: a larger budget is a typo, refused here. */
export const MAX_THINKING_BUDGET = 128_000
export const THINKING_RULE = `a thinking budget is a whole number of tokens from ${MIN_THINKING_BUDGET.toLocaleString('en-US')} to ${MAX_THINKING_BUDGET.toLocaleString('en-US')}`

export const modelIdSchema = z
  .string({ message: `is not a model id (${MODEL_ID_RULE})` })
  .regex(MODEL_ID_PATTERN, { message: `is not a model id (${MODEL_ID_RULE})` })

export const thinkingBudgetSchema = z
  .number({ message: `is not a thinking budget (${THINKING_RULE})` })
  .int({ message: `is not a whole number (${THINKING_RULE})` })
  .min(MIN_THINKING_BUDGET, { message: `is below the API's minimum (${THINKING_RULE})` })
  .max(MAX_THINKING_BUDGET, { message: `is too large (${THINKING_RULE})` })

/**
 * An agent's own choice as config.json keeps it (a member's fields, or the roster's `lead`
 * object): `model` absent means the team's model from the settings, `thinking` absent or null
 * means extended thinking off.
 */
export const modelChoiceFields = {
  model: modelIdSchema.optional(),
  thinking: thinkingBudgetSchema.nullable().optional(),
}
export const leadChoiceSchema = z.looseObject(modelChoiceFields)

/** What the UI and the CLI show: the agent's own model (null: the team's) and its thinking. */
export interface ModelChoice {
  readonly model: string | null
  readonly thinking: number | null
}

/** A change: a field left undefined stays as it is; null goes back to the default (off). */
export interface ModelChoiceChange {
  readonly model?: string | null
  readonly thinking?: number | null
}

/** Why `model` is not a model id, or null. */
export function modelIdProblem(model: string): string | null {
  if (model.length === 0) return 'the model id is empty'
  // Quoted as JSON: a hostile id may hold a newline or a quote.
  const shown = JSON.stringify(truncate(model))
  if (model.length > 200) return `${shown} is longer than 200 characters`
  if (!/^[A-Za-z0-9]/.test(model)) return `${shown} must start with a letter or digit`
  return MODEL_ID_PATTERN.test(model) ? null : `${shown} ${MODEL_ID_RULE_SHORT}`
}

/** Why `budget` is not a thinking budget, or null. */
export function thinkingBudgetProblem(budget: number): string | null {
  const checked = thinkingBudgetSchema.safeParse(budget)
  return checked.success ? null : `${String(budget)} ${checked.error.issues[0]?.message ?? ''}`
}

/** Throws `invalid-argument` with the rule for a change that breaks it (any transport). */
export function assertModelChoice(change: ModelChoiceChange): void {
  if (change.model !== undefined && change.model !== null) {
    // Typed as a string, but a tool's or a file's input may be anything.
    const problem =
      typeof change.model === 'string' ? modelIdProblem(change.model) : 'it is not a string'
    if (problem !== null)
      throw new TeamError('invalid-argument', `Invalid model: ${problem} (${MODEL_ID_RULE}).`)
  }
  if (change.thinking !== undefined && change.thinking !== null) {
    const problem =
      typeof change.thinking === 'number'
        ? thinkingBudgetProblem(change.thinking)
        : `it is not a number (${THINKING_RULE})`
    if (problem !== null) throw new TeamError('invalid-argument', `Invalid thinking: ${problem}.`)
  }
}

/** Writes a change into a config.json entry (a member, or the roster's `lead` object). */
export function applyModelChoice(entry: Record<string, unknown>, change: ModelChoiceChange): void {
  if (change.model === null) delete entry['model']
  else if (change.model !== undefined) entry['model'] = change.model
  if (change.thinking === null) delete entry['thinking']
  else if (change.thinking !== undefined) entry['thinking'] = change.thinking
}

/** An entry's choice as it reads, whatever else the entry holds. */
export function modelChoiceOf(entry: Readonly<Record<string, unknown>> | undefined): ModelChoice {
  const model = entry?.['model']
  const thinking = entry?.['thinking']
  return {
    model: typeof model === 'string' ? model : null,
    thinking: typeof thinking === 'number' ? thinking : null,
  }
}

const MODEL_ID_RULE_SHORT = 'may hold only letters, digits, ".", "_", "-", ":", "@" and "/"'

function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text
}
