import { useId } from 'react'
import {
  MIN_THINKING_BUDGET,
  modelIdProblem,
  thinkingBudgetProblem,
  type ModelChoice,
} from '../../shared/model-choice'
import { Field } from '../ui/Field'

/** The model and thinking fields as typed. */
export interface ModelFieldsValue {
  /** Empty: the team's model. */
  readonly model: string
  readonly thinkingOn: boolean
  readonly budget: string
}

/** The form's start from an agent's choice (or none, for a new teammate). */
export function fieldsFromChoice(choice: ModelChoice | null): ModelFieldsValue {
  return {
    model: choice?.model ?? '',
    thinkingOn: choice !== null && choice.thinking !== null,
    budget: String(choice?.thinking ?? 4096),
  }
}

/** The choice the fields say, or what is wrong with each field, by the runtime's own rules. */
export function readModelFields(
  value: ModelFieldsValue,
):
  | { readonly ok: true; readonly choice: ModelChoice }
  | { readonly ok: false; readonly model: string | null; readonly thinking: string | null } {
  const model = value.model.trim()
  const modelProblem = model === '' ? null : modelIdProblem(model)
  const digits = value.budget.replace(/[\s,_]/g, '')
  const budget = /^\d+$/.test(digits) ? Number(digits) : Number.NaN
  const thinkingProblem = !value.thinkingOn
    ? null
    : Number.isNaN(budget)
      ? `Enter a budget in tokens, at least ${MIN_THINKING_BUDGET.toLocaleString('en-US')}`
      : thinkingBudgetProblem(budget)
  if (modelProblem !== null || thinkingProblem !== null)
    return { ok: false, model: modelProblem, thinking: thinkingProblem }
  return {
    ok: true,
    choice: { model: model === '' ? null : model, thinking: value.thinkingOn ? budget : null },
  }
}

/** "claude-opus-4-1 · thinking 4k": what the roster and the agent's header show. */
export function describeModel(choice: ModelChoice, defaultModel: string | null): string {
  const model = choice.model ?? defaultModel ?? 'the team’s model'
  if (choice.thinking === null) return model
  const budget =
    choice.thinking >= 1000 ? `${Math.round(choice.thinking / 100) / 10}k` : choice.thinking
  return `${model} · thinking ${budget}`
}

/** The model id and the extended-thinking toggle with its budget, for spawn and change. */
export function ModelFields({
  value,
  onChange,
  defaultModel,
  showProblems,
}: {
  readonly value: ModelFieldsValue
  readonly onChange: (value: ModelFieldsValue) => void
  readonly defaultModel: string | null
  readonly showProblems: boolean
}) {
  const ids = { model: useId(), modelHint: useId(), thinking: useId(), budget: useId() }
  const read = readModelFields(value)
  const modelProblem = showProblems && !read.ok ? read.model : null
  const thinkingProblem = showProblems && !read.ok ? read.thinking : null
  return (
    <>
      <Field
        id={ids.model}
        label="Model"
        messageId={ids.modelHint}
        announce
        hint="Empty: the team’s model from Settings."
        error={modelProblem !== null ? <>{capitalize(modelProblem)}.</> : null}
      >
        <input
          id={ids.model}
          value={value.model}
          spellCheck={false}
          autoComplete="off"
          placeholder={defaultModel ? `optional — default: ${defaultModel}` : 'optional'}
          aria-invalid={modelProblem !== null}
          aria-describedby={ids.modelHint}
          onChange={(event) => onChange({ ...value, model: event.target.value })}
        />
      </Field>
      <label className="toggle" htmlFor={ids.thinking}>
        <input
          id={ids.thinking}
          type="checkbox"
          checked={value.thinkingOn}
          onChange={(event) => onChange({ ...value, thinkingOn: event.target.checked })}
        />
        <span className="toggle-text">
          <span>Extended thinking</span>
          <span className="field-hint">
            The model thinks before it answers, within a budget of tokens (billed as output).
          </span>
        </span>
      </label>
      {value.thinkingOn ? (
        <Field
          id={ids.budget}
          label="Thinking budget (tokens)"
          announce
          hint={<>At least {MIN_THINKING_BUDGET.toLocaleString('en-US')}, as the API requires.</>}
          error={thinkingProblem !== null ? <>{capitalize(thinkingProblem)}.</> : null}
        >
          <input
            id={ids.budget}
            inputMode="numeric"
            autoComplete="off"
            value={value.budget}
            aria-invalid={thinkingProblem !== null}
            onChange={(event) => onChange({ ...value, budget: event.target.value })}
          />
        </Field>
      ) : null}
    </>
  )
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
