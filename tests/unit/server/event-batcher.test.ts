import { afterEach, describe, expect, it, vi } from 'vitest'
import { EventBatcher, encodeEventFrames } from '../../../src/server/event-batcher'
import type { HostEvent } from '../../../src/shared/contract'
import { EVENT_BATCH_MS } from '../../../src/shared/wire'

const delta = (agent: string, text: string): HostEvent => ({ type: 'text-delta', agent, text })
const inbox: HostEvent = { type: 'inbox-changed', name: 'bob', change: 'appended', pending: 1 }

function batcher(): { batcher: EventBatcher; sent: HostEvent[][] } {
  const sent: HostEvent[][] = []
  const instance = new EventBatcher((frames) => {
    for (const frame of frames)
      sent.push((JSON.parse(frame) as { kind: 'events'; events: HostEvent[] }).events)
  })
  return { batcher: instance, sent }
}

describe('EventBatcher', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('sends a lone event at once, then one frame per interval while events keep coming', () => {
    vi.useFakeTimers()
    const { batcher: events, sent } = batcher()
    events.push(inbox)
    vi.advanceTimersByTime(0)
    expect(sent).toEqual([[inbox]])
    sent.length = 0
    const first = delta('alice', 'Hel')
    for (const event of [
      first,
      delta('alice', 'lo'),
      delta('bob', 'Hi'),
      inbox,
      delta('alice', '!'),
    ])
      events.push(event)
    vi.advanceTimersByTime(EVENT_BATCH_MS - 1)
    expect(sent).toEqual([])
    vi.advanceTimersByTime(1)
    expect(sent).toEqual([
      [delta('alice', 'Hello'), delta('bob', 'Hi'), inbox, delta('alice', '!')],
    ])
    expect(first).toEqual(delta('alice', 'Hel'))
    vi.advanceTimersByTime(EVENT_BATCH_MS * 3)
    expect(sent).toHaveLength(1)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('flush() sends at once; dispose() leaves no timer and drops what is buffered', () => {
    vi.useFakeTimers()
    const { batcher: events, sent } = batcher()
    events.push(inbox)
    events.flush()
    expect(sent).toEqual([[inbox]])
    vi.advanceTimersByTime(EVENT_BATCH_MS)
    expect(vi.getTimerCount()).toBe(0)
    events.push(inbox)
    events.dispose()
    events.push(inbox)
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(EVENT_BATCH_MS)
    expect(sent).toHaveLength(1)
  })

  it('splits a batch that would be over the frame limit', () => {
    const events = Array.from({ length: 5 }, (_, index) => delta(`agent-${index}`, 'x'.repeat(100)))
    const frames = encodeEventFrames(events, 300)
    expect(frames.length).toBeGreaterThan(1)
    expect(frames.every((frame) => frame.length <= 300)).toBe(true)
    expect(
      frames.flatMap((frame) => (JSON.parse(frame) as { events: HostEvent[] }).events),
    ).toEqual(events)
  })
})
