import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { awaitsModel, toConversation } from '../../../../src/runtime/agents/conversation'
import { readTranscript, TranscriptStore } from '../../../../src/runtime/agents/transcript-store'
import { UsageMeter } from '../../../../src/runtime/agents/usage-meter'
import type { TranscriptRecord } from '../../../../src/shared/transcript'

const clock = { now: () => 1_700_000_000_000 }
const usage = (input: number) => ({
  input_tokens: input,
  output_tokens: 7,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
})

/**
 * A transcript of `count` records in cycles (a task, an inbox delivery, a model turn with a tool
 * call, its result, a final answer), with a compaction record at each seq in `compactions`.
 */
function transcript(count: number, compactions: readonly number[] = []): TranscriptRecord[] {
  const records: TranscriptRecord[] = []
  for (let seq = 1; seq <= count; seq++) {
    const base = { v: 1 as const, seq, at: 1_700_000_000 + seq }
    const cycle = Math.floor((seq - 1) / 5)
    if (compactions.includes(seq)) {
      records.push({
        ...base,
        kind: 'compaction',
        through_seq: seq - 50,
        identity: `<identity>alice ${seq}</identity>`,
        summary: `summary through ${seq - 50}`,
        trigger: 'threshold',
        tokens_before: 9000,
        tokens_after: 900,
        window: 10_000,
        model: 'offline-small',
        usage: usage(seq),
      })
      continue
    }
    switch ((seq - 1) % 5) {
      case 0:
        records.push({ ...base, kind: 'user', from: 'user', text: `task ${cycle}` })
        break
      case 1:
        records.push({
          ...base,
          kind: 'inbox',
          messages: [
            {
              id: `m-${cycle}`,
              type: 'message',
              from: 'bob',
              content: `note ${cycle}`,
              timestamp: 1_700_000_000 + seq,
              extra: {},
            },
          ],
          end: { segment: 1, offset: seq * 100 },
        })
        break
      case 2:
        records.push({
          ...base,
          kind: 'assistant',
          message_id: `msg_${cycle}_a`,
          model: cycle % 2 === 0 ? 'offline' : 'offline-large',
          content: [{ type: 'tool_use', id: `toolu_${cycle}`, name: 'bash', input: { cmd: 'ls' } }],
          stop_reason: 'tool_use',
          usage: usage(cycle),
        })
        break
      case 3:
        records.push({
          ...base,
          kind: 'tool-result',
          tool_use_id: `toolu_${cycle}`,
          name: 'bash',
          content: `result ${cycle}`,
          is_error: false,
        })
        break
      default:
        records.push({
          ...base,
          kind: 'assistant',
          message_id: `msg_${cycle}_b`,
          model: 'offline',
          content: [{ type: 'text', text: `done ${cycle}` }],
          stop_reason: 'end_turn',
          usage: usage(cycle + 1),
        })
    }
  }
  return records
}

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-teams-tail-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

function write(path: string, records: readonly TranscriptRecord[]): void {
  writeFileSync(path, records.map((record) => `${JSON.stringify(record)}\n`).join(''))
}

function open(path: string): TranscriptStore {
  const store = TranscriptStore.open(path, clock)
  onTestFinished(() => store.close())
  return store
}

/** What a full read of the file gives: the old way of opening, kept as the reference. */
function fullRead(path: string) {
  const records = readTranscript(path).records
  const meter = UsageMeter.fromRecords(records)
  const ids = records.flatMap((record) =>
    record.kind === 'inbox' ? record.messages.map((message) => message.id) : [],
  )
  const lastInbox = records.findLast((record) => record.kind === 'inbox')
  return {
    conversation: toConversation(records),
    usage: { rounds: meter.rounds, usage: meter.usage, byModel: meter.usageByModel },
    inboxEnd: lastInbox?.kind === 'inbox' ? lastInbox.end : undefined,
    recentIds: ids.slice(-5000),
    records,
  }
}

function expectSameAsFullRead(store: TranscriptStore, path: string): void {
  const full = fullRead(path)
  expect(store.usageTotals).toEqual(full.usage)
  expect(store.lastInboxEnd()).toEqual(full.inboxEnd)
  expect(store.recentMessageIds(5000)).toEqual(full.recentIds)
  expect(toConversation(store.conversation())).toEqual(full.conversation)
}

describe('opening a transcript tail first', () => {
  it('with compaction records: the same conversation and totals as a full read, reading back only to the last compaction', () => {
    const path = join(folder(), 'alice.jsonl')
    write(path, transcript(3000, [1200, 2600]))
    open(path).close() // an old transcript: read whole once, and its totals written
    expect(existsSync(join(path, '..', 'alice.totals.json'))).toBe(true)

    const store = open(path)
    // Only the end is read at first...
    expect(store.recent[0]?.seq).toBeGreaterThan(2700)
    expectSameAsFullRead(store, path)
    // ...and the conversation goes back to the range the last compaction summarized, no further.
    expect(store.recent[0]?.seq).toBeLessThanOrEqual(2550)
    expect(store.recent[0]?.seq).toBeGreaterThan(2500)
    expect(store.length).toBe(3000)
  })

  it('without compaction records: the conversation is the whole transcript, the totals the same', () => {
    const path = join(folder(), 'alice.jsonl')
    write(path, transcript(1500))
    open(path).close()
    const store = open(path)
    expect(store.recent[0]?.seq).toBeGreaterThan(1)
    expectSameAsFullRead(store, path)
    expect(store.recent[0]?.seq).toBe(1)
  })

  it('an old transcript without a totals file opens with the right totals, and gets one', () => {
    const path = join(folder(), 'alice.jsonl')
    write(path, transcript(800, [500]))
    const store = open(path)
    expectSameAsFullRead(store, path)
    const saved = JSON.parse(readFileSync(join(path, '..', 'alice.totals.json'), 'utf8')) as {
      bytes: number
      last_seq: number
    }
    expect(saved).toMatchObject({ bytes: statSync(path).size, last_seq: 800 })
  })

  it('records appended after the totals were written (a crash before they were saved again) are counted', () => {
    const path = join(folder(), 'alice.jsonl')
    write(path, transcript(600))
    open(path).close()
    // Another run appended and was killed before writing its totals.
    appendFileSync(
      path,
      transcript(700)
        .slice(600)
        .map((record) => `${JSON.stringify(record)}\n`)
        .join(''),
    )
    const store = open(path)
    expectSameAsFullRead(store, path)
    expect(store.usageTotals.rounds).toBe(fullRead(path).usage.rounds)
  })

  it('totals that do not match the transcript (hand-edited, from another file, not JSON) are not trusted', () => {
    const dir = folder()
    const path = join(dir, 'alice.jsonl')
    const totals = join(dir, 'alice.totals.json')
    write(path, transcript(400))
    open(path).close()
    const good = JSON.parse(readFileSync(totals, 'utf8')) as Record<string, unknown>
    const lies = [
      { ...good, rounds: 1, last_seq: 12 }, // the record at that byte is not seq 12
      { ...good, bytes: 10, rounds: 1 }, // not a line boundary
      { ...good, bytes: 10 ** 9 }, // past the end of the file
      { ...good, v: 2 },
    ]
    for (const lie of lies) {
      writeFileSync(totals, JSON.stringify(lie))
      expectSameAsFullRead(open(path), path)
    }
    writeFileSync(totals, '{"v":1,"bytes":')
    expectSameAsFullRead(open(path), path)
  })

  it('a torn last line is cut off; appends go on from the last whole record', () => {
    const path = join(folder(), 'alice.jsonl')
    write(path, transcript(300, [250]))
    open(path).close()
    appendFileSync(path, '{"v":1,"seq":301,"at":1,"kind":"user","from":"user","te')
    const store = open(path)
    expect(readFileSync(path, 'utf8').endsWith('}\n')).toBe(true)
    expectSameAsFullRead(store, path)
    const next = store.append({ kind: 'user', from: 'user', text: 'after the tear' })
    expect(next.seq).toBe(301)
    expect(readTranscript(path)).toMatchObject({ problems: [] })
  })

  it('a hostile line in the tail is reported and skipped, not a crash', () => {
    const path = join(folder(), 'alice.jsonl')
    const records = transcript(300)
    writeFileSync(
      path,
      records
        .map((record, index) => (index === 290 ? '{not json\n' : `${JSON.stringify(record)}\n`))
        .join(''),
    )
    const store = open(path)
    expect(store.problems).toEqual([expect.stringMatching(/not valid JSON/)])
    expectSameAsFullRead(store, path)
  })

  it('pages backwards: each older page holds the same records a full read has there', () => {
    const path = join(folder(), 'alice.jsonl')
    write(path, transcript(2000, [1900]))
    open(path).close()
    const store = open(path)
    const full = fullRead(path).records
    expect(store.page(1, 0)).toEqual({ records: [], total: 2000 })
    expect(store.page(1901, 100)).toEqual({ records: full.slice(1900), total: 2000 })
    for (let fromSeq = 1401; fromSeq >= 1; fromSeq -= 500) {
      expect(store.page(fromSeq, 500).records).toEqual(full.slice(fromSeq - 1, fromSeq + 499))
    }
    expect(store.all).toEqual(full)
  })

  it('totals kept up to date by appends are what a full read counts', () => {
    const path = join(folder(), 'alice.jsonl')
    write(path, transcript(100))
    const store = open(path)
    for (const record of transcript(120).slice(100)) {
      const { v: _v, seq: _seq, at: _at, ...fresh } = record
      store.append(fresh)
    }
    store.close()
    expectSameAsFullRead(open(path), path)
  })
})

describe('opening a transcript whose last turn did not see what came before it', () => {
  it('reads back to the last record its request held, however far that is', () => {
    const path = join(folder(), 'alice.jsonl')
    const base = (seq: number) => ({ v: 1 as const, seq, at: 1_700_000_000 + seq })
    const records: TranscriptRecord[] = [
      { ...base(1), kind: 'user', from: 'user', text: 'First.' },
      { ...base(2), kind: 'user', from: 'user', text: 'Second, while you answer.' },
      {
        ...base(3),
        kind: 'assistant',
        message_id: 'msg_1',
        model: 'offline',
        content: [{ type: 'text', text: 'On the first.' }],
        stop_reason: 'end_turn',
        usage: usage(1),
        seen_through_seq: 1,
      },
    ]
    // Enough records after the turn that the tail's first page would end right at it.
    for (let seq = 4; seq <= 102; seq++)
      records.push({ ...base(seq), kind: 'status', status: 'idle', reason: 'done' })
    write(path, records)
    open(path).close() // its totals written, so that the next open reads only the tail

    const store = open(path)
    expect(store.recent[0]?.seq).toBeLessThanOrEqual(2)
    expect(awaitsModel(store.recent)).toBe(true)
  })
})

describe('the records after a seq', () => {
  it('reads back only as far as it needs, and gives exactly the records after it', () => {
    const path = join(folder(), 'a.jsonl')
    const records = Array.from({ length: 40 }, (_, index) => ({
      v: 1 as const,
      seq: index + 1,
      at: index,
      kind: 'user' as const,
      from: 'user',
      text: `turn ${index + 1}`,
    }))
    write(path, records)
    const store = open(path)
    expect(store.since(37).map((record) => record.seq)).toEqual([38, 39, 40])
    expect(store.since(40)).toEqual([])
    expect(store.since(0).map((record) => record.seq)).toEqual(records.map((record) => record.seq))
    expect(store.since(37).map((record) => record.seq)).toEqual([38, 39, 40])
  })
})
