import { setTimeout as sleep } from 'node:timers/promises'
import { TeamError } from '../shared/errors'
import {
  decisionsFor,
  newestFirstByAgent,
  type NeedsYouAnswer,
  type NeedsYouEntry,
} from '../shared/needs-you'
import { formatSecondsUtc } from '../shared/time'
import { needsYouPath, readNeedsYou } from '../runtime/needs-you/store'
import { TeamPaths } from '../runtime/team/paths'
import type { CommandContext } from './commands'
import { sendControl } from './control-commands'
import { oneLine, UsageError, writeLine } from './output'

type Command = (context: CommandContext) => Promise<number>

/** What fits one control line (64 KiB) with room for its JSON escapes. */
const MAX_ANSWER_CHARACTERS = 20_000

/** The lines of a tool call's or question's detail that the text listing shows. */
const DETAIL_LINES = 20

/** How long an answer waits for the running team to record it. */
const RECORD_WAIT_MS = 10_000

function entries(paths: TeamPaths): NeedsYouEntry[] {
  return readNeedsYou(needsYouPath(paths)).entries
}

/** `agent-teams queue [--all] [--json]`: what waits on the person (--all: settled ones too). */
export const queue: Command = async (context) => {
  if (context.positionals.length > 0) throw new UsageError('takes no arguments')
  const all = entries(new TeamPaths(context.options.workspace))
  const shown = newestFirstByAgent(
    context.options.all ? all : all.filter((entry) => entry.status === 'pending'),
  )
  const out = context.output.stdout
  if (context.options.json) {
    for (const entry of shown) await writeLine(out, JSON.stringify(entry))
    return 0
  }
  if (shown.length === 0) await writeLine(out, 'Nothing needs you.')
  let agent: string | null = null
  for (const entry of shown) {
    if (entry.agent !== agent) {
      agent = entry.agent
      await writeLine(out, `${oneLine(agent)}:`)
    }
    const state = entry.status === 'pending' ? '' : ` [${entry.status}]`
    await writeLine(
      out,
      `  ${oneLine(entry.id)} ${entry.kind}${state} ${formatSecondsUtc(entry.created_at)}: ${oneLine(entry.summary)}`,
    )
    if (entry.kind === 'tool' || entry.kind === 'question') {
      const lines = entry.detail.split('\n')
      for (const line of lines.slice(0, DETAIL_LINES)) await writeLine(out, `      ${line}`)
      const more = lines.length - DETAIL_LINES
      if (more > 0)
        await writeLine(
          out,
          `      … ${more} more line${more === 1 ? '' : 's'}: "agent-teams queue --json" or the window's Needs you view shows them all`,
        )
    }
    if (entry.status === 'pending')
      await writeLine(out, `      answer: ${decisionsFor(entry.kind).join(' | ')}`)
  }
  return 0
}

/** Sends the answer through control.jsonl and waits until needs-you.json records it. */
async function answer(context: CommandContext, decision: NeedsYouAnswer['decision']) {
  if (context.positionals.length !== 1)
    throw new UsageError('expected <id> (see "agent-teams queue")')
  const id = context.positionals[0] ?? ''
  const text = decision === 'deny' ? context.options.reason : context.options.text
  if (decision === 'deny' && (text ?? '').trim() === '')
    throw new UsageError('a denial needs --reason saying why (the agent reads it)')
  if (decision === 'answer' && (text ?? '').trim() === '')
    throw new UsageError('an answer needs --text')
  if ((text ?? '').length > MAX_ANSWER_CHARACTERS)
    throw new UsageError(
      `the text is over ${MAX_ANSWER_CHARACTERS.toLocaleString('en-US')} characters; send the rest as a message`,
    )
  const paths = new TeamPaths(context.options.workspace)
  const entry = entries(paths).find((candidate) => candidate.id === id)
  if (!entry) throw new TeamError('not-found', `There is no entry ${id} (see "agent-teams queue").`)
  if (entry.status !== 'pending')
    throw new TeamError('already-settled', `Entry ${id} was already ${entry.status}.`)
  if (!decisionsFor(entry.kind).includes(decision))
    throw new TeamError(
      'invalid-argument',
      `A ${entry.kind} entry takes ${decisionsFor(entry.kind).join(', ')}.`,
    )
  sendControl(paths, {
    command: 'answer',
    id,
    decision,
    ...(text === undefined ? {} : { text }),
  })
  const deadline = Date.now() + RECORD_WAIT_MS
  for (;;) {
    const now = entries(paths).find((candidate) => candidate.id === id)
    if (now === undefined || now.status !== 'pending') {
      await writeLine(
        context.output.stdout,
        context.options.json
          ? JSON.stringify(now ?? { id })
          : `${id} (${oneLine(entry.agent)}: ${oneLine(entry.summary)}): ${now?.status ?? 'settled'}.`,
      )
      return 0
    }
    if (Date.now() > deadline)
      throw new TeamError(
        'timed-out',
        `The running team has not recorded the answer to ${id} after ${RECORD_WAIT_MS / 1000} s; its window says why (is ${entry.agent} still waiting on it?).`,
      )
    await sleep(50)
  }
}

/** `agent-teams approve <id> [--always]` */
export const approve: Command = (context) =>
  answer(context, context.options.always ? 'approve-always' : 'approve')

/** `agent-teams deny <id> --reason TEXT`: the reason goes back to the model. */
export const deny: Command = (context) => answer(context, 'deny')

/** `agent-teams answer <id> --text TEXT`: the answer to an ask_user question. */
export const answerQuestion: Command = (context) => answer(context, 'answer')
