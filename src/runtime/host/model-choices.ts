import {
  applyModelChoice,
  modelChoiceOf,
  type ModelChoice,
  type ModelChoiceChange,
} from '../../shared/model-choice'
import { LEAD } from '../../shared/names'
import type { RosterFile } from '../../shared/roster'
import type { Roster } from '../roster/roster'

/**
 * Where each agent's model and thinking live in config.json: a member's own fields, and for the
 * lead (not a member, as in s09) the roster's `lead` object.
 */
export function readModelChoice(roster: Roster, name: string): ModelChoice {
  return modelChoiceOf(name === LEAD ? roster.snapshot.lead : roster.find(name))
}

/** Applies a checked change to a roster draft; an emptied `lead` object is removed. */
export function writeModelChoice(draft: RosterFile, name: string, change: ModelChoiceChange): void {
  if (name === LEAD) {
    const lead: Record<string, unknown> = { ...draft.lead }
    applyModelChoice(lead, change)
    if (Object.keys(lead).length === 0) delete draft.lead
    else draft.lead = lead
    return
  }
  const member = draft.members.find((candidate) => candidate.name === name)
  if (member) applyModelChoice(member, change)
}

/** "alice now runs on claude-x, thinking on (2048 tokens)." */
export function describeModelChange(
  name: string,
  choice: ModelChoice,
  defaultModel: string,
): string {
  const model = choice.model ?? `${defaultModel} (the team's model)`
  const thinking = choice.thinking === null ? 'off' : `on (${choice.thinking} tokens)`
  return `${name} now runs on ${model}, thinking ${thinking}.`
}
