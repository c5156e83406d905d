import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { scheduleListingSchema } from '../../../src/shared/schedules'
import { appServices } from '../../helpers/app-service'
import { waitFor } from '../../helpers/wait'

const open = appServices('agent-teams-schedules-contract-')

describe('the schedules in the contract', () => {
  it('add, list, run now, turn off and remove, as the window does', async () => {
    const { service } = await open({ script: () => text('Summed up.') })
    const list = async () => scheduleListingSchema.parse(await service.execute('listSchedules', {}))
    expect((await list()).schedules).toEqual([])

    const added = (await service.execute('addSchedule', {
      name: 'nightly',
      when: { type: 'every', seconds: 86_400 },
      prompt: 'Sum up the day.',
      tokens: 500_000,
      usd: null,
    })) as { schedule: { caps: unknown } }
    expect(added.schedule.caps).toEqual({ usd: null, tokens: 500_000 })
    await expect(
      service.execute('addSchedule', {
        name: 'bad',
        when: { type: 'cron', cron: '* *' },
        prompt: 'x',
      }),
    ).rejects.toMatchObject({ code: 'invalid-argument' })
    await expect(
      service.execute('addSchedule', {
        name: 'Bad Name',
        when: { type: 'in', seconds: 5 },
        prompt: 'x',
      }),
    ).rejects.toMatchObject({ code: 'invalid-argument' })

    const listed = await list()
    expect(listed.trusted).toBe(true)
    expect(listed.schedules[0]).toMatchObject({ state: 'idle', last_run: null })
    expect(listed.schedules[0]?.next_run).toBeGreaterThan(Date.now() / 1000)

    expect(await service.execute('runScheduleNow', { name: 'nightly' })).toEqual({
      outcome: 'started',
    })
    await waitFor(async () => (await list()).schedules[0]?.last_run?.event === 'finished')

    const off = (await service.execute('setScheduleEnabled', {
      name: 'nightly',
      enabled: false,
    })) as {
      schedule: { enabled: boolean }
    }
    expect(off.schedule.enabled).toBe(false)
    expect((await list()).schedules[0]?.next_run).toBeNull()
    await service.execute('removeSchedule', { name: 'nightly' })
    expect((await list()).schedules).toEqual([])
    await expect(service.execute('removeSchedule', { name: 'nightly' })).rejects.toMatchObject({
      code: 'not-found',
    })
  })
})
