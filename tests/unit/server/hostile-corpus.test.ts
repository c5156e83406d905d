import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { WebSocket } from 'ws'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DEFAULT_STATIC_DIRECTORY } from '../../../src/cli/serve-command'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { runAgentTeams } from '../../helpers/bin'
import { corpusChunks, hostileCorpus, type Corpus } from '../../helpers/hostile-corpus'
import { tempTeam } from '../../helpers/workspace'
import { startServer } from '../../e2e/serve'

const built = existsSync(join(DEFAULT_STATIC_DIRECTORY, 'index.html'))
/**
 * The bound on how much serve's resident memory may grow while it takes the whole corpus (no
 * runaway: nothing kept per line). Measured on one build: it starts at about 127 MB and peaks at
 * 243-388 MB (growth 115-261 MB), depending on when the heap is collected on a busy machine; the
 * former bound of 300 MB on the peak itself failed CI by chance (365 MB once).
 */
const RSS_GROWTH_BOUND_MB = 320

function readJsonLines(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return []
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

/** The offsets (in one segment) of the corpus's lines that must be rejected. */
function invalidOffsets(corpus: Corpus): number[] {
  const offsets: number[] = []
  let at = 0
  for (const line of corpus.lines) {
    if (line.validId === null) offsets.push(at)
    at += line.bytes.length
  }
  return offsets
}

function expectEveryValidOnceAndEveryInvalidLogged(
  corpus: Corpus,
  delivered: string[],
  rejected: Record<string, unknown>[],
): void {
  expect(delivered.length).toBe(corpus.validIds.length)
  expect(new Set(delivered)).toEqual(new Set(corpus.validIds))
  expect(rejected.map((record) => record.offset).sort((a, b) => Number(a) - Number(b))).toEqual(
    invalidOffsets(corpus),
  )
  for (const record of rejected) expect(String(record.reason).length).toBeGreaterThan(0)
}

function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

describe('a hostile corpus of 2,000+ lines', () => {
  it('the generator makes what it says: the consumer delivers every valid id once and logs every other line', async () => {
    const corpus = hostileCorpus()
    expect(corpus.invalidCount).toBeGreaterThanOrEqual(2000)
    const team = tempTeam(['alice'])
    mkdirSync(team.paths.inboxDirectory, { recursive: true })
    const consumer = team.consumer('alice')
    const delivered: string[] = []
    for (const chunk of corpusChunks(corpus, 5)) {
      appendFileSync(team.paths.inbox('alice'), chunk)
      for (;;) {
        const batch = await consumer.poll()
        delivered.push(...batch.deliveries.map((delivery) => delivery.message.id))
        consumer.commit(batch)
        if (batch.deliveries.length === 0 && batch.rejections.length === 0) break
      }
    }
    expectEveryValidOnceAndEveryInvalidLogged(
      corpus,
      delivered,
      readJsonLines(team.paths.rejected('alice')),
    )
  })

  it.skipIf(!built)(
    'fed to an inbox and to control.jsonl while the real serve runs: all delivered once, all refused logged, no crash, memory bounded',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'agent-teams-hostile-'))
      onTestFinished(() => rmSync(root, { recursive: true, force: true }))
      const workspace = join(root, 'workspace')
      const paths = new TeamPaths(workspace)
      mkdirSync(paths.inboxDirectory, { recursive: true })
      // A teammate named "constructor" beside a per-agent budget (it kept serve from starting);
      // the team's one round keeps the offline model out of the way.
      writeFileSync(
        paths.config,
        JSON.stringify({
          team_name: 'hostile',
          members: [
            { name: 'target', role: 'reader', status: 'idle' },
            { name: 'constructor', role: 'builder', status: 'idle' },
          ],
          budgets: {
            team: { tokens: null, rounds: 1 },
            // Any per-agent budget made plain `agents[name]` find Object's for "constructor".
            agents: { target: { tokens: 1000, rounds: 5 } },
          },
        }),
      )
      // The person's own team, fed by other programs: trusted, so its mail wakes its agents.
      const server = await startServer({
        workspace,
        configHome: join(root, 'config'),
        args: ['--trust-workspace'],
      })
      onTestFinished(() => void server.stop())
      const corpus = hostileCorpus()
      const startRss = rssMegabytes(server.child.pid as number)
      let peakRss = startRss
      for (const chunk of corpusChunks(corpus, 8)) {
        appendFileSync(paths.inbox('target'), chunk)
        appendFileSync(paths.control, chunk)
        await new Promise((resolve) => setTimeout(resolve, 150))
        peakRss = Math.max(peakRss, rssMegabytes(server.child.pid as number))
      }
      const size = corpus.lines.reduce((sum, line) => sum + line.bytes.length, 0)
      const deadline = Date.now() + 60_000
      for (;;) {
        const cursor = existsSync(paths.cursor('target'))
          ? readJsonLines(paths.cursor('target'))[0]
          : undefined
        const controlRefusals = readJsonLines(join(paths.root, 'control-rejected.jsonl')).length
        if (cursor?.offset === size && controlRefusals === corpus.lines.length) break
        if (Date.now() > deadline || server.child.exitCode !== null)
          throw new Error(
            `serve did not take the corpus (cursor ${JSON.stringify(cursor)} of ${size}, ${controlRefusals} control refusals):\n${server.output()}`,
          )
        peakRss = Math.max(peakRss, rssMegabytes(server.child.pid as number))
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      peakRss = Math.max(peakRss, rssMegabytes(server.child.pid as number))

      const snapshot = await requestOverSocket(server.url, server.origin, 'getSnapshot')
      expect(snapshot).toMatchObject({ ok: true })
      const members = (snapshot as { result: { members: { name: string; budget: unknown }[] } })
        .result.members
      const budgetOf = (name: string) => members.find((member) => member.name === name)?.budget
      expect(budgetOf('constructor')).toEqual({ tokens: null, rounds: null, usd: null })
      expect(budgetOf('target')).toEqual({ tokens: 1000, rounds: 5, usd: null })

      expect(await server.stop()).toBe(0)
      const transcript = readJsonLines(paths.transcript('target'))
      const delivered = transcript.flatMap((record) =>
        record.kind === 'inbox'
          ? (record.messages as { id: string }[]).map((each) => each.id)
          : record.kind === 'tool-result' && Array.isArray(record.inbox_ids)
            ? (record.inbox_ids as string[])
            : [],
      )
      expectEveryValidOnceAndEveryInvalidLogged(
        corpus,
        delivered,
        readJsonLines(paths.rejected('target')),
      )
      expect(server.output()).not.toMatch(/internal error|unexpected failure/)
      expect(
        peakRss - startRss,
        `serve's RSS grew from ${startRss.toFixed(0)} to ${peakRss.toFixed(0)} MB while it took the corpus`,
      ).toBeLessThan(RSS_GROWTH_BOUND_MB)
    },
    180_000,
  )

  it('fed to an inbox while drain runs, over several runs: all delivered once, all refused logged', async () => {
    const team = tempTeam(['alice'])
    mkdirSync(team.paths.inboxDirectory, { recursive: true })
    const corpus = hostileCorpus()
    const delivered: string[] = []
    const drain = async (): Promise<void> => {
      const run = await runAgentTeams(['drain', 'alice', '--workspace', team.dir], {
        timeoutMs: 60_000,
      })
      expect(run.code, run.stderr.slice(0, 2000)).toBe(0)
      delivered.push(...run.lines.map((line) => (JSON.parse(line) as { id: string }).id))
    }
    for (const chunk of corpusChunks(corpus, 4)) {
      // Appended while a drain runs; whatever it missed, the next run takes.
      const running = drain()
      appendFileSync(team.paths.inbox('alice'), chunk)
      await running
    }
    await drain()
    expectEveryValidOnceAndEveryInvalidLogged(
      corpus,
      delivered,
      readJsonLines(team.paths.rejected('alice')),
    )
  }, 180_000)
})

/** One request over the WebSocket, as the browser page makes it. */
function requestOverSocket(url: string, origin: string, command: string): Promise<unknown> {
  const address = new URL(url)
  const socket = new WebSocket(`ws://${address.host}/ws${address.search}`, { origin })
  return new Promise((resolve, reject) => {
    socket.once('error', reject)
    socket.once('open', () =>
      socket.send(JSON.stringify({ kind: 'request', id: 1, command, params: {} })),
    )
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString()) as { kind: string; id?: number }
      if (frame.kind === 'response' && frame.id === 1) {
        socket.close()
        resolve(frame)
      }
    })
  })
}
