import { setTimeout as sleep } from 'node:timers/promises'
import { plainMessage } from '../shared/messages'
import { DEFAULT_ENGINE, ENGINE_LABELS, engineOf } from '../shared/engine'
import { modelChoiceOf } from '../shared/model-choice'
import { formatSecondsUtc } from '../shared/time'
import { Mailbox, type InboxEntry } from '../runtime/mailbox/mailbox'
import { Roster } from '../runtime/roster/roster'
import { TeamPaths } from '../runtime/team/paths'
import { serve } from './serve-command'
import type { ParsedOptions } from './main'
import { budget } from './budget-command'
import { describeChoice, model, spawn } from './model-commands'
import { plan, requests, resume, shutdown, stop } from './control-commands'
import { answerQuestion, approve, deny, queue } from './needs-you-commands'
import { profile, profiles } from './profile-commands'
import { resetRoster } from './roster-reset'
import { remove, review } from './review-commands'
import { checkpointsCommand, undoCommand } from './undo-commands'
import { tasks } from './task-commands'
import { chat, demo, transcript } from './team-commands'
import { note } from './note-command'
import { team } from './template-commands'
import { exportCommand, search } from './history-commands'
import { timeline } from './timeline-command'
import { mcp } from './mcp-commands'
import { schedule } from './schedule-commands'
import { engines } from './engine-commands'
import { trustCommand } from './workspace-trust'
import { reactions } from './reactions-command'
import { oneLine, UsageError, writeLine, type Output } from './output'

export interface CommandContext {
  readonly output: Output
  readonly positionals: readonly string[]
  readonly options: ParsedOptions
}

type Command = (context: CommandContext) => Promise<number>

function openMailbox(options: ParsedOptions): Mailbox {
  const paths = new TeamPaths(options.workspace)
  let names: string[] | undefined
  return new Mailbox(paths, {
    members: () => (names ??= Roster.read(paths).members.map((member) => member.name)),
  })
}

function expectPositionals(context: CommandContext, names: readonly string[]): string[] {
  if (names.length === 0 && context.positionals.length > 0) {
    throw new UsageError(`takes no arguments (got "${context.positionals.join(' ')}")`)
  }
  if (context.positionals.length !== names.length) {
    const given = context.positionals.length
    throw new UsageError(
      `expected ${names.map((name) => `<${name}>`).join(' ')}, got ${given} argument${given === 1 ? '' : 's'}${given > names.length ? ' (quote the content if it has spaces)' : ''}`,
    )
  }
  return [...context.positionals]
}

function describeEntry(entry: InboxEntry): string {
  const where = `p${entry.position.segment}-${entry.position.offset}`
  if (!entry.message) return `[rejected] at ${where}: ${oneLine(entry.reason ?? '')}`
  const message = entry.message
  const reason = entry.state === 'rejected' ? ` (${oneLine(entry.reason ?? '')})` : ''
  // The header is one line whatever the sender wrote; the content is a block, line by line.
  const header = `${oneLine(message.from)} -> ${oneLine(message.to)} ${message.type} ${oneLine(message.id)}`
  return `[${entry.state}] ${formatSecondsUtc(message.timestamp)} ${header}${reason}\n    ${message.content.replace(/\n/g, '\n    ')}`
}

/** A message says something: empty or blank content is a mistake, not a message. */
function assertContent(content: string): void {
  if (content.trim().length === 0)
    throw new UsageError('the content is empty; write the message as the last argument (quoted)')
}

const send: Command = async (context) => {
  const [to, content] = expectPositionals(context, ['to', 'content']) as [string, string]
  assertContent(content)
  const message = openMailbox(context.options).send({
    from: context.options.from ?? 'user',
    to,
    content,
    type: context.options.type ?? 'message',
  })
  await writeLine(
    context.output.stdout,
    context.options.json
      ? JSON.stringify(plainMessage(message))
      : `Sent ${message.type} ${message.id} to ${to}`,
  )
  return 0
}

const broadcast: Command = async (context) => {
  if (context.options.type !== undefined)
    throw new UsageError('broadcast always sends type "broadcast"; drop --type')
  const [content] = expectPositionals(context, ['content']) as [string]
  assertContent(content)
  const messages = openMailbox(context.options).broadcast({
    from: context.options.from ?? 'user',
    content,
  })
  if (context.options.json) {
    await writeLine(
      context.output.stdout,
      JSON.stringify({ count: messages.length, messages: messages.map(plainMessage) }),
    )
  } else {
    await writeLine(
      context.output.stdout,
      `Broadcast to ${messages.length} recipient${messages.length === 1 ? '' : 's'}${messages.length > 0 ? `: ${messages.map((message) => message.to).join(', ')}` : ''}`,
    )
  }
  return 0
}

const inbox: Command = async (context) => {
  const [name] = expectPositionals(context, ['name']) as [string]
  const limit = context.options.limit === undefined ? Infinity : Number(context.options.limit)
  if (!Number.isInteger(limit) && limit !== Infinity)
    throw new UsageError(`--limit takes a whole number, not "${context.options.limit}"`)
  if (limit < 1) throw new UsageError('--limit must be at least 1')
  const mailbox = openMailbox(context.options)
  let from = undefined
  let shown = 0
  for (;;) {
    const page = await mailbox.peek(name, {
      from,
      pendingOnly: !context.options.all,
      limit: Math.min(1000, limit - shown),
    })
    for (const entry of page.entries) {
      if (!context.options.all && entry.state !== 'pending') continue
      shown++
      if (context.options.json) {
        await writeLine(
          context.output.stdout,
          JSON.stringify({
            state: entry.state,
            position: entry.position,
            ...(entry.message ? { message: plainMessage(entry.message) } : {}),
            ...(entry.reason ? { reason: entry.reason } : {}),
          }),
        )
      } else {
        await writeLine(context.output.stdout, describeEntry(entry))
      }
    }
    if (page.next === null || shown >= limit) break
    from = page.next
  }
  if (shown === 0 && !context.options.json)
    await writeLine(
      context.output.stdout,
      context.options.all ? `The inbox of ${name} is empty.` : `No pending messages for ${name}.`,
    )
  return 0
}

const drain: Command = async (context) => {
  const [name] = expectPositionals(context, ['name']) as [string]
  // drain keeps no records but what it prints: the ids it delivered are kept for it, so that a
  // repeated id is refused in a later run as an agent refuses it from its transcript.
  const consumer = openMailbox(context.options).openConsumer(name, { keepDeliveredIds: true })
  try {
    for (;;) {
      const batch = await consumer.poll()
      for (const delivery of batch.deliveries)
        await writeLine(context.output.stdout, JSON.stringify(plainMessage(delivery.message)))
      for (const rejection of batch.rejections) {
        await writeLine(
          context.output.stderr,
          `agent-teams drain: set aside the line at p${rejection.position.segment}-${rejection.position.offset} of ${name}'s inbox: ${rejection.reason}`,
        )
      }
      // Printed first, committed after: a crash in between prints those messages again next
      // time (with the same ids), never loses them.
      consumer.commit(batch)
      if (batch.waitMs > 0 && batch.deliveries.length === 0) {
        // Messages may wait behind an archived segment that is still open to late appends.
        await sleep(batch.waitMs)
        continue
      }
      const nothingNew = batch.deliveries.length === 0 && batch.rejections.length === 0
      if (nothingNew && batch.end.segment === batch.start.segment) break
    }
  } finally {
    consumer.close()
  }
  return 0
}

const archive: Command = async (context) => {
  const [name] = expectPositionals(context, ['name']) as [string]
  const consumer = openMailbox(context.options).openConsumer(name)
  try {
    const { segment } = consumer.archive()
    await writeLine(
      context.output.stdout,
      context.options.json
        ? JSON.stringify({ archived_segment: segment })
        : `Archived the inbox of ${name} as segment ${segment}; pending messages in it are still delivered.`,
    )
  } finally {
    consumer.close()
  }
  return 0
}

const roster: Command = async (context) => {
  expectPositionals(context, [])
  const paths = new TeamPaths(context.options.workspace)
  if (context.options.reset) return resetRoster(context, paths)
  const file = Roster.read(paths)
  if (context.options.json) {
    await writeLine(context.output.stdout, JSON.stringify(file))
    return 0
  }
  const lines = [`Team: ${oneLine(file.team_name)}`]
  if (file.members.length === 0) lines.push('  No teammates.')
  for (const member of file.members) {
    // A member on the team's model without thinking reads as before.
    const choice = modelChoiceOf(member)
    const own = choice.model !== null || choice.thinking !== null
    // A builtin member reads as before engines.
    const engine = engineOf(member)
    const runs = engine === DEFAULT_ENGINE ? '' : ` · ${ENGINE_LABELS[engine]}`
    lines.push(
      `  ${member.name} (${oneLine(member.role)}): ${member.status}${own ? ` · ${describeChoice(choice)}` : ''}${runs}`,
    )
  }
  await writeLine(context.output.stdout, lines.join('\n'))
  return 0
}

export const commands: Readonly<Record<string, Command>> = {
  send,
  broadcast,
  inbox,
  drain,
  archive,
  roster,
  chat,
  demo,
  transcript,
  serve,
  stop,
  resume,
  shutdown,
  plan,
  requests,
  budget,
  spawn,
  model,
  note,
  team,
  search,
  export: exportCommand,
  timeline,
  review,
  remove,
  undo: undoCommand,
  checkpoints: checkpointsCommand,
  tasks,
  mcp,
  schedule,
  trust: trustCommand,
  reactions,
  queue,
  approve,
  deny,
  answer: answerQuestion,
  profile,
  profiles,
  engines,
}
