import {
  appendFileSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { TeamPaths } from '../../../src/runtime/team/paths'
import { TeamWatcher } from '../../../src/runtime/team/watcher'
import { run } from '../../helpers/processes'
import { waitFor } from '../../helpers/wait'
import { has, shown, watch, workspaceWithInboxes } from '../../helpers/watch'
import { s09Line } from '../../helpers/workspace'

/** The size of alice's inbox at each of its events, from a watcher whose re-check is a minute off. */
async function aliceSizesWithoutRecheck(paths: TeamPaths): Promise<number[]> {
  const sizes: number[] = []
  const watcher = new TeamWatcher(
    paths,
    (change) => {
      if (change.kind === 'inbox' && change.name === 'alice' && change.change !== 'removed')
        sizes.push(statSync(paths.inbox('alice')).size)
    },
    { trailingCheckMs: 60_000 },
  )
  onTestFinished(() => watcher.close())
  await watcher.ready()
  return sizes
}

/** Appends `count` lines to alice's inbox, each only once the one before was reported. */
async function appendEachSeen(paths: TeamPaths, sizes: number[], count: number): Promise<void> {
  for (let round = 1; round <= count; round++) {
    appendFileSync(paths.inbox('alice'), s09Line(`line ${round}`))
    const size = statSync(paths.inbox('alice')).size
    await waitFor(
      () => sizes.includes(size),
      () => `an event at size ${size} (append ${round}); got sizes ${JSON.stringify(sizes)}`,
    )
  }
}

describe('TeamWatcher', () => {
  it("an external append to an inbox emits {kind: 'inbox', change: 'appended'}", async () => {
    const paths = workspaceWithInboxes('alice')
    const { events } = await watch(paths)
    appendFileSync(paths.inbox('alice'), s09Line('more'))
    await waitFor(has(events, { kind: 'inbox', name: 'alice', change: 'appended' }), shown(events))
    expect(
      events.every(
        (event) => event.kind === 'inbox' && event.name === 'alice' && event.change === 'appended',
      ),
    ).toBe(true)
  })

  it("a new inbox file emits 'added', and its next line 'appended'", async () => {
    const paths = workspaceWithInboxes()
    const { events } = await watch(paths)
    writeFileSync(paths.inbox('carol'), s09Line('first'))
    await waitFor(has(events, { kind: 'inbox', name: 'carol', change: 'added' }), shown(events))
    appendFileSync(paths.inbox('carol'), s09Line('second'))
    await waitFor(has(events, { kind: 'inbox', name: 'carol', change: 'appended' }), shown(events))
    expect(
      events.filter((event) => event.kind === 'inbox' && event.change === 'added'),
    ).toHaveLength(1)
  })

  it("a removed inbox file emits 'removed'", async () => {
    const paths = workspaceWithInboxes('alice')
    const { events } = await watch(paths)
    unlinkSync(paths.inbox('alice'))
    await waitFor(has(events, { kind: 'inbox', name: 'alice', change: 'removed' }), shown(events))
  })

  it("an edit of config.json emits {kind: 'config'}, also an atomic rename-replace, and edits after it", async () => {
    const paths = workspaceWithInboxes()
    // The file as it was at each config event: a late event of one edit cannot pass for the next.
    const seen: string[] = []
    const { events } = await watch(paths, (change) => {
      if (change.kind === 'config') seen.push(readFileSync(paths.config, 'utf8'))
    })
    const reported = (text: string) =>
      waitFor(
        () => seen.includes(text),
        () => `a config event with ${JSON.stringify(text)}; got ${JSON.stringify(events)}`,
      )
    writeFileSync(paths.config, '{"team_name": "edited", "members": []}\n')
    await reported('{"team_name": "edited", "members": []}\n')
    for (let round = 0; round < 2; round++) {
      const temp = join(paths.root, `.config.json.${round}.tmp`)
      const text = `{"team_name": "renamed-${round}", "members": []}\n`
      writeFileSync(temp, text)
      renameSync(temp, paths.config)
      await reported(text)
    }
    appendFileSync(paths.config, '\n')
    await reported('{"team_name": "renamed-1", "members": []}\n\n')
    expect(events.every((event) => event.kind === 'config')).toBe(true)
  })

  it('does not miss the last write of a burst: the size at the last event is the final size', async () => {
    const paths = workspaceWithInboxes('alice')
    const { aliceSizes } = await watch(paths)
    const line = s09Line('burst')
    const burst = await run(process.execPath, [
      '-e',
      `const fs = require('fs'); for (let i = 0; i < 50; i++) fs.appendFileSync(process.argv[1], ${JSON.stringify(line)})`,
      paths.inbox('alice'),
    ])
    expect(burst.code).toBe(0)
    const finalSize = statSync(paths.inbox('alice')).size
    expect(finalSize).toBe(Buffer.byteLength(s09Line('hello alice')) + 50 * Buffer.byteLength(line))
    await waitFor(
      () => aliceSizes.at(-1) === finalSize,
      () => `an event at size ${finalSize}; sizes seen: ${JSON.stringify(aliceSizes)}`,
    )
    expect(aliceSizes.length).toBeGreaterThan(0)
    expect([...aliceSizes].sort((a, b) => a - b)).toEqual(aliceSizes)
  })

  it('a burst written in process, between event-loop turns, ends with an event at the final size', async () => {
    const paths = workspaceWithInboxes('alice')
    const { aliceSizes } = await watch(paths)
    for (let index = 0; index < 50; index++) {
      appendFileSync(paths.inbox('alice'), s09Line(`n${index}`))
      if (index % 10 === 0) await new Promise((resolve) => setImmediate(resolve))
    }
    const finalSize = statSync(paths.inbox('alice')).size
    await waitFor(
      () => aliceSizes.at(-1) === finalSize,
      () => `an event at size ${finalSize}; sizes seen: ${JSON.stringify(aliceSizes)}`,
    )
  })

  it('files under .team/mailbox/, other files of .team/ and non-inbox files emit nothing', async () => {
    const paths = workspaceWithInboxes('alice', 'bob')
    const { events } = await watch(paths)
    mkdirSync(paths.archiveDirectory('alice'), { recursive: true })
    writeFileSync(paths.cursor('alice'), '{"v":1,"segment":1,"offset":0}\n')
    appendFileSync(paths.rejected('alice'), '{"reason":"x"}\n')
    writeFileSync(paths.consumerLock('alice'), '{}')
    writeFileSync(paths.archivedSegment('alice', 1), s09Line('archived'))
    mkdirSync(join(paths.root, 'transcripts'), { recursive: true })
    appendFileSync(join(paths.root, 'transcripts', 'alice.jsonl'), '{"kind":"text"}\n')
    writeFileSync(join(paths.root, 'notes.txt'), 'x')
    writeFileSync(join(paths.root, '.config.json.123.abc.tmp'), '{')
    writeFileSync(join(paths.inboxDirectory, 'alice.txt'), 'x')
    writeFileSync(join(paths.inboxDirectory, 'Bad-Name.jsonl'), s09Line('x'))
    // A sentinel written last: once its event is in, any event for the writes above would be too.
    appendFileSync(paths.inbox('bob'), s09Line('sentinel'))
    await waitFor(has(events, { kind: 'inbox', name: 'bob', change: 'appended' }), shown(events))
    expect(events).toEqual(events.map(() => ({ kind: 'inbox', name: 'bob', change: 'appended' })))
  })

  it('reports each append of a quick series on its own, without waiting for the re-check', async () => {
    // chokidar alone throttles a file's changes for 50 ms, so the second append of a pair would
    // surface only at the re-check, which this watcher puts a minute away.
    const paths = workspaceWithInboxes('alice')
    const sizes = await aliceSizesWithoutRecheck(paths)
    await appendEachSeen(paths, sizes, 5)
    expect(new Set(sizes).size).toBe(sizes.length)
  })

  it('keeps the fast path when the inbox folder is replaced', async () => {
    const paths = workspaceWithInboxes('alice')
    const sizes = await aliceSizesWithoutRecheck(paths)
    const aside = `${paths.inboxDirectory}.old`
    renameSync(paths.inboxDirectory, aside)
    mkdirSync(paths.inboxDirectory)
    writeFileSync(paths.inbox('alice'), s09Line('new folder'))
    await waitFor(
      () => sizes.length > 0,
      () => `an event for the new folder; got ${JSON.stringify(sizes)}`,
    )
    await appendEachSeen(paths, sizes, 3)
  })
})
