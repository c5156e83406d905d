import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toConversation } from '../../src/runtime/agents/conversation'
import { readTranscript } from '../../src/runtime/agents/transcript-store'
import { Mailbox } from '../../src/runtime/mailbox/mailbox'
import { validateConversation } from '../../src/offline-model/requests'
import { Roster } from '../../src/runtime/roster/roster'
import { TeamPaths } from '../../src/runtime/team/paths'
import { bundleWorkers, kill, seededRandom, sleep, startWorker } from './processes'

const KILLS = 55
const STEPS = 40
const AGENTS = ['lead', 'w1', 'w2', 'w3']
/** The last, unkilled run has this long to finish the work (it takes a few seconds). */
const FINISH_LIMIT_MS = 120_000

let workers: Awaited<ReturnType<typeof bundleWorkers>>
let workspace: string

beforeAll(async () => {
  workers = await bundleWorkers(['team-runner'])
  workspace = mkdtempSync(join(tmpdir(), 'agent-teams-runtime-crash-'))
})
afterAll(() => {
  workers.dispose()
  rmSync(workspace, { recursive: true, force: true })
})

describe('the runtime under SIGKILL', () => {
  it(`brings the whole team back after ${KILLS} kills: every message once, valid transcripts, no tool call twice`, async () => {
    const random = seededRandom(Number(process.env.STRESS_SEED ?? 5))
    let kills = 0
    while (kills < KILLS && !existsSync(join(workspace, 'done'))) {
      const runner = startWorker(workers.path('team-runner'), [workspace, String(STEPS)])
      await runner.ready
      await Promise.race([sleep(5 + random() * 80), runner.exited])
      if (runner.child.exitCode === null) {
        await kill(runner)
        kills++
      }
    }
    const last = startWorker(workers.path('team-runner'), [workspace, String(STEPS)])
    const finished = await Promise.race([last.exited, sleep(FINISH_LIMIT_MS).then(() => 'late')])
    if (finished === 'late') {
      await kill(last)
      throw new Error(
        `the team did not finish within ${FINISH_LIMIT_MS / 1000} s of its last start; ` +
          `roster: ${readFileSync(new TeamPaths(workspace).config, 'utf8')}`,
      )
    }
    expect(finished, last.stderr()).toBe(0)
    expect(kills).toBeGreaterThanOrEqual(50)

    const paths = new TeamPaths(workspace)
    const transcripts = new Map(
      AGENTS.map((name) => [name, readTranscript(paths.transcript(name))]),
    )
    for (const [name, { records, problems }] of transcripts) {
      expect(problems, `${name}'s transcript`).toEqual([])
      // Valid for the API: the offline server's own conversation rules.
      expect(
        () => validateConversation(toConversation(records)),
        `${name}'s conversation`,
      ).not.toThrow()
    }

    // Every message sent was delivered, to its recipient, exactly once.
    const mailbox = new Mailbox(paths, {
      members: () => Roster.read(paths).members.map((member) => member.name),
    })
    for (const name of AGENTS) {
      const page = await mailbox.peek(name, { limit: 100_000 })
      expect(
        page.entries.filter((entry) => entry.state !== 'delivered'),
        `${name}'s inbox`,
      ).toEqual([])
      const delivered = (transcripts.get(name)?.records ?? []).flatMap((record) =>
        record.kind === 'inbox'
          ? record.messages.map((message) => message.id)
          : record.kind === 'tool-result'
            ? (record.inbox_ids ?? [])
            : [],
      )
      expect(new Set(delivered).size, `${name}: no message twice`).toBe(delivered.length)
      expect(delivered.sort(), `${name}: every message in its inbox`).toEqual(
        page.entries.map((entry) => entry.message?.id).sort(),
      )
    }

    // The side-effect counter: every bash call ran at most once, and every step happened.
    const effects = readFileSync(join(workspace, 'side-effects.txt'), 'utf8').trim().split('\n')
    expect(new Set(effects).size).toBe(effects.length)
    const interrupted = [...transcripts.values()]
      .flatMap(({ records }) => records)
      .filter(
        (record) =>
          record.kind === 'tool-result' &&
          record.is_error &&
          record.content.includes('interrupted'),
      ).length
    expect(effects.length + interrupted).toBeGreaterThanOrEqual(STEPS * 3)
    console.info(
      `[stress] runtime: ${kills} kills, ${effects.length} bash effects, ${interrupted} interrupted calls answered without re-running`,
    )
  }, 600_000)
})
