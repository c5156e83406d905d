import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { REACTIONS_SENDER } from '../../src/shared/names'
import { reactionLineSchema, type ReactionLine } from '../../src/shared/unattended-log'
import type { HostUnderTest } from './host'

/** Every line of the workspace's `.team/reactions.jsonl`, each checked against the schema. */
export function reactionLines(workspace: string): ReactionLine[] {
  let text: string
  try {
    text = readFileSync(join(workspace, '.team', 'reactions.jsonl'), 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => reactionLineSchema.parse(JSON.parse(line)))
}

/** What the reactions put in `name`'s transcript (messages from the reserved sender). */
export function fromReactions(team: HostUnderTest, name: string): string[] {
  return team
    .records(name, 'inbox')
    .flatMap((record) => record.messages)
    .filter((message) => message.from === REACTIONS_SENDER)
    .map((message) => message.content)
}

/** A clock the test moves: the real time plus what the test added. */
export function movableClock(): { now: () => number; advance: (milliseconds: number) => void } {
  let skew = 0
  return {
    now: () => Date.now() + skew,
    advance: (milliseconds) => {
      skew += milliseconds
    },
  }
}
