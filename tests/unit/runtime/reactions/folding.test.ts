import { describe, expect, it } from 'vitest'
import { queueScript, text, type Reply } from '../../../../src/offline-model/script'
import { LEAD, USER } from '../../../../src/shared/names'
import { lastUserTexts, requestsOf } from '../../../helpers/agents'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { movableClock, reactionLines } from '../../../helpers/reactions'
import { waitFor } from '../../../helpers/wait'

function held(reply: Reply): { reply: Promise<Reply>; release: () => void } {
  let release = (): void => undefined
  const promise = new Promise<Reply>((resolve) => {
    release = () => resolve(reply)
  })
  return { reply: promise, release }
}

/** Waits until the watcher has reported the lead's inbox too (it would wake the lead again). */
async function watcherSaw(team: HostUnderTest, name: string): Promise<void> {
  await waitFor(
    () => team.events.some((event) => event.type === 'inbox-changed' && event.name === name),
    () => `the watcher's report of ${name}'s inbox`,
    { timeout: 5000 },
  )
}

async function readyAlice(team: HostUnderTest): Promise<void> {
  await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
  await team.host.whenIdle()
}

describe('duplicate wakes are folded', () => {
  it('messages arriving while the lead works make exactly one further lead turn', async () => {
    const first = held(text('Planning done.'))
    const script = queueScript({
      alice: [text('Ready.')],
      lead: [first.reply, text('Read all three reports.')] as Reply[],
    })
    const team = await startHost(script)
    await readyAlice(team)
    team.host.chat('Plan the work.')
    await waitFor(
      () => team.host.roster().lead.status === 'working',
      () => 'the lead at work',
    )
    for (const index of [1, 2, 3])
      team.host.send({ from: 'alice', to: LEAD, content: `report ${index}` })
    await watcherSaw(team, LEAD)
    first.release()
    await team.host.whenIdle()
    script.assertConsumed()

    const requests = requestsOf(team, LEAD)
    expect(requests).toHaveLength(2)
    const texts = lastUserTexts(requests[1]).join('\n')
    for (const index of [1, 2, 3]) expect(texts).toContain(`report ${index}`)
    expect(reactionLines(team.workspace).filter((line) => line.kind === 'fold')).toMatchObject([
      { agent: LEAD, folded: 3, failed: false },
    ])
    expect(team.host.reactions.view().counts.fold).toBe(1)
  })

  it('a burst of messages to an idle lead is one lead turn', async () => {
    const script = queueScript({
      alice: [text('Ready.')],
      lead: [text('Three reports, one answer.')],
    })
    const team = await startHost(script)
    await readyAlice(team)
    for (const index of [1, 2, 3])
      team.host.send({ from: 'alice', to: LEAD, content: `burst ${index}` })
    await watcherSaw(team, LEAD)
    await team.host.whenIdle()
    script.assertConsumed()
    expect(requestsOf(team, LEAD)).toHaveLength(1)
    expect(lastUserTexts(requestsOf(team, LEAD)[0]).join('\n')).toContain('burst 3')
  })

  it('a teammate going idle, or nudged for its idle task, does not wake the lead', async () => {
    const clock = movableClock()
    const script = queueScript({
      alice: [text('Ready.'), text('Did the small thing.'), text('On it.')],
    })
    const team = await startHost(script, { clock, reactionTickMs: null })
    await readyAlice(team)
    team.host.send({ to: 'alice', content: 'Do a small thing.' })
    await waitFor(
      () => team.records('alice', 'inbox').length === 1,
      () => 'the message in alice transcript',
    )
    await team.host.whenIdle()
    const task = team.host.tasks.create({ subject: 'Long work', by: USER })
    team.host.tasks.claim(task.id, 'alice')
    clock.advance(11 * 60_000)
    team.host.reactions.tick()
    await waitFor(
      () => team.records('alice', 'inbox').length === 2,
      () => 'the nudge in alice transcript',
    )
    await team.host.whenIdle()
    await watcherSaw(team, 'alice')
    await team.host.whenIdle()
    script.assertConsumed()

    expect(
      team.events.filter((event) => event.type === 'agent-status-changed' && event.name === 'alice')
        .length,
    ).toBeGreaterThan(2)
    expect(requestsOf(team, LEAD)).toEqual([])
    expect((await team.host.inbox(LEAD)).entries).toEqual([])
  })
})
