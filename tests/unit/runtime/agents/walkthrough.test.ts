import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { deliveredIds, startHost } from '../../../helpers/host'

describe('the s09 walkthrough, through the real SDK', () => {
  it('spawns alice and bob; alice messages bob; bob gets it exactly once; statuses go working -> idle', async () => {
    const script = queueScript({
      lead: [
        {
          content: [
            {
              type: 'tool_use',
              name: 'spawn_teammate',
              input: { name: 'alice', role: 'coder', prompt: 'Send bob a greeting.' },
            },
            {
              type: 'tool_use',
              name: 'spawn_teammate',
              input: { name: 'bob', role: 'tester', prompt: 'Wait for messages.' },
            },
          ],
        },
        text('Both are spawned.'),
      ],
      alice: [
        toolCall('send_message', { to: 'bob', content: 'hello bob, from alice' }),
        text('Sent.'),
      ],
      bob: [text('Waiting.'), text('Got a greeting from alice.')],
    })
    const team = await startHost(script)
    team.host.chat('Spawn alice (coder) and bob (tester). Have alice send bob a message.')
    await team.host.whenIdle()
    script.assertConsumed()

    const roster = team.host.roster()
    expect(roster.members.map((member) => [member.name, member.role, member.status])).toEqual([
      ['alice', 'coder', 'idle'],
      ['bob', 'tester', 'idle'],
    ])
    const greetings = team
      .records('bob', 'inbox')
      .flatMap((record) => record.messages)
      .filter((message) => message.from === 'alice')
    expect(greetings.map((message) => message.content)).toEqual(['hello bob, from alice'])
    expect(new Set(deliveredIds(team, 'bob')).size).toBe(deliveredIds(team, 'bob').length)

    // bob's status as the roster recorded it, change by change: spawned working, then idle.
    // (Whether alice's message woke an idle bob or reached him mid-turn depends on timing.)
    const bobStatuses = team.events
      .flatMap((event) =>
        event.type === 'roster-changed'
          ? event.members.filter((member) => member.name === 'bob').map((member) => member.status)
          : [],
      )
      .filter((status, index, all) => index === 0 || all[index - 1] !== status)
    expect(bobStatuses[0]).toBe('working')
    expect(bobStatuses[bobStatuses.length - 1]).toBe('idle')
    expect(bobStatuses.every((status) => status === 'working' || status === 'idle')).toBe(true)
    // The message bob read was the one alice's tool sent, with the runtime's `from`.
    const sent = team.events.find(
      (event) => event.type === 'message-sent' && event.message.to === 'bob',
    )
    expect(sent?.type === 'message-sent' && sent.message.from).toBe('alice')
  })

  it('broadcasts to every teammate once and reports the count; the lead reads its own inbox', async () => {
    const script = queueScript({
      lead: [
        {
          content: [
            {
              type: 'tool_use',
              name: 'spawn_teammate',
              input: { name: 'alice', role: 'coder', prompt: 'Report to the lead.' },
            },
            {
              type: 'tool_use',
              name: 'spawn_teammate',
              input: { name: 'bob', role: 'tester', prompt: 'Report to the lead.' },
            },
          ],
        },
        text('Spawned.'),
        toolCall('broadcast', { content: 'status update: phase 1 complete' }),
        text('Broadcast sent.'),
        toolCall('read_inbox', {}),
        text('Read the inbox.'),
      ],
      alice: [text('Ready.'), text('Noted the update.')],
      bob: [text('Ready.'), text('Noted the update.')],
    })
    const team = await startHost(script, { leadWakesOnMessages: false })
    team.host.chat('Spawn alice (coder) and bob (tester).')
    await team.host.whenIdle()
    team.host.chat('Broadcast "status update: phase 1 complete" to all teammates')
    await team.host.whenIdle()
    const broadcastResult = team
      .records('lead', 'tool-result')
      .find((record) => record.name === 'broadcast')
    expect(broadcastResult?.content).toBe('Broadcast to 2 teammates')
    for (const name of ['alice', 'bob']) {
      const updates = team
        .records(name, 'inbox')
        .flatMap((record) => record.messages)
        .filter((message) => message.type === 'broadcast')
      expect(updates.map((message) => [message.from, message.content])).toEqual([
        ['lead', 'status update: phase 1 complete'],
      ])
    }

    team.host.send({ from: 'alice', to: 'lead', content: 'alice reporting' })
    team.host.chat('Check the lead inbox for any messages')
    await team.host.whenIdle()
    script.assertConsumed()
    // The chat turn injected the pending message before the model call; read_inbox found the rest.
    const injectedToLead = team.records('lead', 'inbox').flatMap((record) => record.messages)
    expect(injectedToLead.map((message) => message.content)).toContain('alice reporting')
    expect(
      deliveredIds(team, 'lead').filter((id) =>
        injectedToLead.some(
          (message) => message.id === id && message.content === 'alice reporting',
        ),
      ),
    ).toHaveLength(1)
  })
})
