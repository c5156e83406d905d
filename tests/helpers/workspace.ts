import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { onTestFinished } from 'vitest'
import type { Clock } from '../../src/runtime/system/clock'
import { sequentialIds } from '../../src/runtime/system/clock'
import type { InboxConsumer } from '../../src/runtime/mailbox/consumer'
import { Mailbox } from '../../src/runtime/mailbox/mailbox'
import { Roster } from '../../src/runtime/roster/roster'
import { TeamPaths } from '../../src/runtime/team/paths'
import type { Member } from '../../src/shared/roster'

/** A fixed instant far in the future: every archived segment's grace window is long over. */
export const FAR_FUTURE_MS = Date.UTC(2090, 0, 1)
export const farFutureClock: Clock = { now: () => FAR_FUTURE_MS }

/** A fresh workspace folder, removed when the current test finishes. */
export function tempWorkspace(prefix = 'agent-teams-unit-'): { dir: string; paths: TeamPaths } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return { dir, paths: new TeamPaths(dir) }
}

export interface Team {
  readonly dir: string
  readonly paths: TeamPaths
  readonly roster: Roster
  readonly mailbox: Mailbox
  /** Opens a consumer that is closed when the test finishes. */
  consumer(name: string, options?: Parameters<Mailbox['openConsumer']>[1]): InboxConsumer
}

/**
 * A workspace with a roster of `members` (idle teammates) and a mailbox over it. Ids are
 * sequential (`m-1`, `m-2`, …); the clock is `clock` (far in the future by default).
 */
export function tempTeam(
  members: readonly string[] = ['alice', 'bob'],
  options: { clock?: Clock } = {},
): Team {
  const { dir, paths } = tempWorkspace()
  const roster = Roster.open(paths)
  if (members.length > 0) {
    roster.update((draft) => {
      for (const name of members)
        draft.members.push({ name, role: `${name}'s role`, status: 'idle' } satisfies Member)
    })
  }
  const mailbox = new Mailbox(paths, {
    members: () => roster.memberNames(),
    clock: options.clock ?? farFutureClock,
    ids: sequentialIds(),
  })
  return {
    dir,
    paths,
    roster,
    mailbox,
    consumer(name, consumerOptions) {
      const consumer = mailbox.openConsumer(name, consumerOptions)
      onTestFinished(() => consumer.close())
      return consumer
    },
  }
}

/** Every file below `dir`, as paths relative to it (empty when `dir` does not exist). */
export function listFiles(dir: string): string[] {
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return []
  }
  const files: string[] = []
  for (const name of names) {
    const path = join(dir, name)
    if (statSync(path).isDirectory())
      files.push(...listFiles(path).map((inner) => join(name, inner)))
    else files.push(relative(dir, path))
  }
  return files.sort()
}

/** Appends raw text or bytes to `name`'s live inbox file, as another program would. */
export function appendRaw(paths: TeamPaths, name: string, data: string | Uint8Array): void {
  mkdirSync(paths.inboxDirectory, { recursive: true })
  appendFileSync(paths.inbox(name), data)
}

/** A line with only s09's four fields, as the tutorial writes it. */
export function s09Line(content: string, from = 'lead', type = 'message'): string {
  return `${JSON.stringify({ type, from, content, timestamp: 1700000000.5 })}\n`
}
