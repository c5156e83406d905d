import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import type { Reply, TurnBlock } from '../../../../src/offline-model/script'
import { agentScript, gate, refused, requestsOf, toolResults } from '../../../helpers/agents'
import { deliveredIds, startHost } from '../../../helpers/host'

const COUNT = 20
const names = Array.from({ length: COUNT }, (_, index) => `t${index + 1}`)
const next = (name: string): string => names[(names.indexOf(name) + 1) % COUNT] ?? 't1'

describe('20 teammates working at once', () => {
  it('finish with every message delivered exactly once and every conversation valid', async () => {
    // t1's first reply is held until every teammate has called the model: one slow agent must
    // not block the others. (The gate opens by itself after a while, which the test detects.)
    const held = gate()
    const firstCalls = new Set<string>()
    let allStartedTogether = false
    const script = agentScript((agent, call): Reply | Promise<Reply> | undefined => {
      if (agent === 'lead') {
        if (call > 1) return text('Noted.')
        return {
          content: names.map((name): TurnBlock => ({
            type: 'tool_use',
            id: `spawn_${name}`,
            name: 'spawn_teammate',
            input: {
              name,
              role: 'worker',
              prompt: `Tell the lead you are done, and greet ${next(name)}.`,
            },
          })),
        }
      }
      if (!names.includes(agent)) return undefined
      if (call > 1) return text(`${agent} is done.`)
      firstCalls.add(agent)
      if (firstCalls.size === COUNT) {
        allStartedTogether = true
        held.open()
      }
      const turn: Reply = {
        content: [
          {
            type: 'tool_use',
            name: 'send_message',
            input: { to: 'lead', content: `report from ${agent}` },
          },
          {
            type: 'tool_use',
            name: 'send_message',
            input: { to: next(agent), content: `greeting from ${agent} to ${next(agent)}` },
          },
        ],
      }
      return agent === 't1' ? held.hold(turn) : turn
    })
    const team = await startHost(script)
    team.host.chat(`Spawn ${COUNT} workers.`)
    await team.host.whenIdle()

    expect(allStartedTogether).toBe(true)
    expect(script.unexpected).toEqual([])
    expect(team.server.requests.filter(refused).map((request) => request.reply)).toEqual([])
    expect(team.host.errors()).toEqual([])
    expect(team.events.filter((event) => event.type === 'agent-error')).toEqual([])

    // Every spawn succeeded, in the one turn.
    const spawned = toolResults(requestsOf(team, 'lead')[1])
    expect([...spawned.values()].map((block) => block.is_error)).toEqual(names.map(() => false))

    const roster = team.host.roster()
    expect(roster.members.map((member) => member.name).sort()).toEqual([...names].sort())
    expect(roster.members.filter((member) => member.status !== 'idle')).toEqual([])
    expect(roster.members.filter((member) => member.running)).toEqual([])
    expect(roster.lead.status).toBe('idle')

    // Each message sent was delivered exactly once, across all 21 transcripts.
    const sent = team.events.flatMap((event) =>
      event.type === 'message-sent' ? [event.message] : [],
    )
    expect(sent).toHaveLength(2 * COUNT)
    const delivered = ['lead', ...names].flatMap((name) => deliveredIds(team, name))
    expect([...delivered].sort()).toEqual(sent.map((message) => message.id).sort())

    // The lead holds one report from each teammate.
    const reports = team
      .records('lead', 'inbox')
      .flatMap((record) => record.messages)
      .map((message) => `${message.from}: ${message.content}`)
    expect(reports.sort()).toEqual(names.map((name) => `${name}: report from ${name}`).sort())

    // Each teammate holds exactly the greeting from the one before it.
    for (const name of names) {
      const previous = names[(names.indexOf(name) + COUNT - 1) % COUNT] ?? ''
      const greetings = team
        .records(name, 'inbox')
        .flatMap((record) => record.messages)
        .map((message) => [message.from, message.content])
      expect(greetings, name).toEqual([[previous, `greeting from ${previous} to ${name}`]])
    }

    // Nothing is left pending in any inbox.
    for (const name of ['lead', ...names]) {
      const page = await team.host.inbox(name)
      expect(
        page.entries.filter((entry) => entry.state !== 'delivered'),
        name,
      ).toEqual([])
    }
  })
})
