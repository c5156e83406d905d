import { describe, expect, it } from 'vitest'
import { queueScript, text } from '../../../src/offline-model/script'
import { awayDigestSchema, timelineSchema } from '../../../src/shared/timeline'
import { appServices } from '../../helpers/app-service'
import { waitFor } from '../../helpers/wait'

const openService = appServices('agent-teams-timeline-')

describe('the timeline commands', () => {
  it('getTimeline answers the team in order; the digest starts at the last look', async () => {
    const { service } = await openService({ script: queueScript({ lead: [text('Hello.')] }) })
    await service.execute('chat', { text: 'Hi.' })
    const read = async () =>
      timelineSchema.parse(await service.execute('getTimeline', { limit: 100 }))
    await waitFor(async () => (await read()).entries.some((entry) => entry.kind === 'turn'))
    const timeline = await read()
    expect(timeline.entries.map((entry) => entry.kind)).toContain('status')
    expect(timeline.agents).toEqual(['lead'])

    const first = awayDigestSchema.parse(await service.execute('getAwayDigest', {}))
    expect(first.counts.turn).toBe(1)
    const now = Date.now() / 1000 + 1
    await service.execute('markTimelineSeen', { at: now })
    const after = awayDigestSchema.parse(await service.execute('getAwayDigest', {}))
    expect(after.since).toBe(now)
    expect(after.counts).toEqual({})
    await expect(service.execute('getTimeline', { kinds: ['nope'] })).rejects.toThrow(/kinds/)
  })
})
