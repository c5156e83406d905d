import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Roster } from '../../src/runtime/roster/roster'
import { TeamPaths } from '../../src/runtime/team/paths'
import { bundleWorkers, kill, seededRandom, sleep, startWorker, type Worker } from './processes'
import { tally } from './tally'

const WRITERS = 4
const PER_WRITER = 25_000
const CONSUMER_KILLS = 24
const INBOX = 'bob'

let workers: Awaited<ReturnType<typeof bundleWorkers>>
const workspaces: string[] = []

beforeAll(async () => {
  workers = await bundleWorkers(['writer', 'consumer', 'tutorial-drain'])
})
afterAll(() => {
  workers.dispose()
  for (const workspace of workspaces) rmSync(workspace, { recursive: true, force: true })
})

function teamWithBob(): { workspace: string; paths: TeamPaths } {
  const workspace = mkdtempSync(join(tmpdir(), 'agent-teams-stress-'))
  workspaces.push(workspace)
  const paths = new TeamPaths(workspace)
  Roster.open(paths).update((draft) => {
    draft.members.push({ name: INBOX, role: 'tester', status: 'idle' })
  })
  return { workspace, paths }
}

async function expectClean(worker: Worker): Promise<void> {
  const code = await worker.exited
  expect(code, worker.stderr()).toBe(0)
}

function startWriter(
  workspace: string,
  prefix: string,
  count: number,
): { worker: Worker; ackFile: string } {
  const ackFile = join(workspace, `acks-${prefix}.txt`)
  return {
    worker: startWorker(workers.path('writer'), [workspace, INBOX, prefix, String(count), ackFile]),
    ackFile,
  }
}

describe(`mailbox under ${WRITERS} writer processes x ${PER_WRITER} messages`, () => {
  it('delivers every message once, with none corrupt, while a consumer drains it', async () => {
    const { workspace } = teamWithBob()
    const journal = join(workspace, 'journal.jsonl')
    const stop = join(workspace, 'stop')
    const consumer = startWorker(workers.path('consumer'), [workspace, INBOX, journal, stop])
    await consumer.ready
    const writers = Array.from({ length: WRITERS }, (_, index) =>
      startWriter(workspace, `w${index}`, PER_WRITER),
    )
    for (const writer of writers) await expectClean(writer.worker)
    writeFileSync(stop, '')
    await expectClean(consumer)

    const result = tally(
      journal,
      writers.map((writer) => writer.ackFile),
    )
    console.info(`[stress] ${JSON.stringify(result)}`)
    expect(result).toEqual({
      delivered: WRITERS * PER_WRITER,
      acked: WRITERS * PER_WRITER,
      lost: 0,
      duplicated: 0,
      corrupt: 0,
    })
  }, 240_000)

  it('loses and repeats nothing when the consumer and the writers are SIGKILLed at random', async () => {
    const random = seededRandom(Number(process.env.STRESS_SEED ?? 20261202))
    const { workspace } = teamWithBob()
    const journal = join(workspace, 'journal.jsonl')
    const stop = join(workspace, 'stop')
    const ackFiles: string[] = []
    let writersDone = 0
    let writerKills = 0

    const superviseWriter = async (index: number): Promise<void> => {
      let remaining = PER_WRITER
      for (let incarnation = 0; remaining > 0; incarnation++) {
        const { worker, ackFile } = startWriter(workspace, `w${index}.${incarnation}`, remaining)
        ackFiles.push(ackFile)
        await worker.ready
        if (incarnation < 3 && random() < 0.8) {
          await Promise.race([sleep(50 + random() * 400), worker.exited])
          if (worker.child.exitCode === null) {
            await kill(worker)
            writerKills++
          }
        }
        const code = await worker.exited
        if (code === 0) break
        remaining -= tally(journal, [ackFile]).acked
      }
      writersDone++
    }

    let consumerKills = 0
    const superviseConsumer = async (): Promise<void> => {
      while (consumerKills < CONSUMER_KILLS || writersDone < WRITERS) {
        const consumer = startWorker(workers.path('consumer'), [workspace, INBOX, journal, stop])
        await consumer.ready
        await sleep(5 + random() * 150)
        await kill(consumer)
        consumerKills++
      }
      writeFileSync(stop, '')
      const last = startWorker(workers.path('consumer'), [workspace, INBOX, journal, stop])
      await expectClean(last)
    }

    await Promise.all([
      superviseConsumer(),
      ...Array.from({ length: WRITERS }, (_, index) => superviseWriter(index)),
    ])
    const result = tally(journal, ackFiles)
    console.info(
      `[stress] consumer kills ${consumerKills}, writer kills ${writerKills}: ${JSON.stringify(result)}`,
    )
    expect(consumerKills).toBeGreaterThanOrEqual(20)
    expect(writerKills).toBeGreaterThan(0)
    expect(result.lost).toBe(0)
    expect(result.duplicated).toBe(0)
    expect(result.corrupt).toBe(0)
    expect(result.acked).toBeGreaterThan(WRITERS * PER_WRITER * 0.99)
  }, 300_000)

  it("control: the tutorial's drain (read, then write the file empty) loses messages under the same load", async () => {
    const { workspace, paths } = teamWithBob()
    const journal = join(workspace, 'journal.jsonl')
    const stop = join(workspace, 'stop')
    const drain = startWorker(workers.path('tutorial-drain'), [paths.inbox(INBOX), journal, stop])
    await drain.ready
    const writers = Array.from({ length: WRITERS }, (_, index) =>
      startWriter(workspace, `w${index}`, PER_WRITER),
    )
    for (const writer of writers) await expectClean(writer.worker)
    writeFileSync(stop, '')
    await expectClean(drain)

    const result = tally(
      journal,
      writers.map((writer) => writer.ackFile),
    )
    console.info(`[stress] tutorial drain: ${JSON.stringify(result)}`)
    expect(result.acked).toBe(WRITERS * PER_WRITER)
    expect(result.lost).toBeGreaterThan(0)
  }, 240_000)
})
