import { checkpointPolicySchema, type CheckpointPolicy } from '../../shared/undo'

/**
 * The policy as typed in Settings: a whole number of checkpoints per agent and a number of
 * days, within what the contract takes; otherwise what is wrong, in words.
 */
export function parsePolicy(
  count: string,
  days: string,
):
  | { readonly ok: true; readonly policy: CheckpointPolicy }
  | { readonly ok: false; readonly error: string } {
  const maxPerAgent = Number(count.trim().replace(/[\s,_]/g, ''))
  const maxAgeDays = Number(days.trim().replace(',', '.'))
  const limits = checkpointPolicySchema.shape
  if (count.trim() === '' || !limits.maxPerAgent.safeParse(maxPerAgent).success)
    return { ok: false, error: 'Checkpoints per agent: a whole number from 1 to 100,000.' }
  if (days.trim() === '' || !limits.maxAgeDays.safeParse(maxAgeDays).success)
    return { ok: false, error: 'Days: a number from 0.01 to 3,650.' }
  return { ok: true, policy: { maxPerAgent, maxAgeDays } }
}
