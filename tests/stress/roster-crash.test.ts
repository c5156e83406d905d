import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rosterSchema } from '../../src/shared/roster'
import { Roster } from '../../src/runtime/roster/roster'
import { TeamPaths } from '../../src/runtime/team/paths'
import { bundleWorkers, kill, seededRandom, sleep, startWorker } from './processes'

const KILLS = 220

let workers: Awaited<ReturnType<typeof bundleWorkers>>
let workspace: string

beforeAll(async () => {
  workers = await bundleWorkers(['roster-writer'])
  workspace = mkdtempSync(join(tmpdir(), 'agent-teams-roster-'))
})
afterAll(() => {
  workers.dispose()
  rmSync(workspace, { recursive: true, force: true })
})

describe('config.json under SIGKILL', () => {
  it(`parses after each of ${KILLS} kills in the middle of roster writes`, async () => {
    const random = seededRandom(Number(process.env.STRESS_SEED ?? 7))
    const paths = new TeamPaths(workspace)
    let failures = 0
    let killsAfterWrites = 0
    let previous = ''
    for (let round = 0; round < KILLS; round++) {
      const writer = startWorker(workers.path('roster-writer'), [workspace])
      await writer.ready
      await sleep(2 + random() * 40)
      await kill(writer)
      const text = readFileSync(paths.config, 'utf8')
      const parsed = rosterSchema.safeParse(JSON.parse(text))
      if (!parsed.success) failures++
      if (text !== previous) killsAfterWrites++
      previous = text
    }
    expect(failures).toBe(0)
    // The writer really was writing when it was killed: the file changed between most kills.
    expect(killsAfterWrites).toBeGreaterThan(KILLS * 0.8)
    // Opening again cleans the temp files the killed writers left behind.
    Roster.open(paths)
    expect(readdirSync(paths.root).filter((file) => file.endsWith('.tmp'))).toEqual([])
    // 220 Node processes started one after another: about a minute on a quiet 2-core machine,
    // several under load. The limit only ends a hang; the test measures nothing in time.
  }, 480_000)

  it("control: the same kills against an in-place rewrite (the tutorial's way) leave broken files", async () => {
    const random = seededRandom(11)
    const control = mkdtempSync(join(tmpdir(), 'agent-teams-roster-control-'))
    try {
      let broken = 0
      for (let round = 0; round < 60; round++) {
        const writer = startWorker(workers.path('roster-writer'), [control, 'in-place'])
        await writer.ready
        await sleep(2 + random() * 40)
        await kill(writer)
        try {
          JSON.parse(readFileSync(join(control, '.team', 'config.json'), 'utf8'))
        } catch {
          broken++
          // Start the next round from a good file, as a person fixing it would.
          Roster.reset(new TeamPaths(control))
        }
      }
      console.info(`[stress] in-place roster writes: ${broken} of 60 kills left invalid JSON`)
      expect(broken).toBeGreaterThan(0)
    } finally {
      rmSync(control, { recursive: true, force: true })
    }
  }, 120_000)
})
