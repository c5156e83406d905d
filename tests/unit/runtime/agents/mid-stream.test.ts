import { appendFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { toConversation } from '../../../../src/runtime/agents/conversation'
import type { RecordedRequest } from '../../../../src/offline-model/offline-server'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import {
  agentScript,
  gate,
  messagesOf,
  requestsOf,
  type Gate,
  type RequestBlock,
} from '../../../helpers/agents'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/**
 * Something recorded for an agent while its model call is in flight was not seen by that call:
 * it must reach the model in a later request, after the turn that did not see it.
 */

/** The texts of each user message of a request, one string per message. */
function userMessages(request: RecordedRequest | undefined): string[] {
  return messagesOf(request)
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : message.content.map((block: RequestBlock) => block.text ?? '').join('\n'),
    )
}

/** The first call of `agent` is held until the test opens `held`; later ones come from `after`. */
function heldFirstCall(
  agent: string,
  held: Gate,
  first: Reply,
  after: Reply[],
): ReturnType<typeof agentScript> & { inFlight: () => boolean } {
  let arrived = false
  const script = agentScript((name, call) => {
    if (name !== agent) return undefined
    if (call === 1) {
      arrived = true
      return held.hold(first)
    }
    return after[call - 2]
  })
  return Object.assign(script, { inFlight: () => arrived })
}

async function whileInFlight(
  team: HostUnderTest,
  script: { inFlight: () => boolean },
  held: Gate,
  act: () => void | Promise<void>,
): Promise<void> {
  await waitFor(script.inFlight, () => 'the held model call')
  await act()
  held.open()
  await team.host.whenIdle()
}

describe('a message recorded while a model call is in flight', () => {
  it("the person's chat during the lead's final answer wakes the lead for it", async () => {
    const held = gate()
    const script = heldFirstCall('lead', held, text('Working on the first thing.'), [
      text('Now the second thing.'),
    ])
    const team = await startHost(script)
    team.host.chat('First thing.')
    await whileInFlight(team, script, held, () => team.host.chat('Second thing, while you think.'))

    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'lead')
    expect(requests).toHaveLength(2)
    expect(userMessages(requests[0])).toEqual(['First thing.'])
    // The chat comes after the turn that never saw it, as the newest user message.
    expect(userMessages(requests[1])).toEqual(['First thing.', 'Second thing, while you think.'])
    expect(team.host.roster().lead.status).toBe('idle')
    // The turn says what its request held; the transcript keeps the order things happened in.
    expect(team.records('lead', 'assistant').map((record) => record.seen_through_seq)).toEqual([
      1,
      undefined,
    ])
  })

  it("the person's chat after the lead's reply began to stream is answered by a later call", async () => {
    // Part of the text streams, then the server is silent a while: the reply is on screen.
    const reply = text('Working on the first thing, and this reply streams in several pieces.')
    const script = agentScript((name, call) => {
      if (name !== 'lead') return undefined
      if (call === 1) return { fault: 'stall', afterEvents: 4, milliseconds: 2000, turn: reply }
      return call === 2 ? text('Now the second thing.') : undefined
    })
    const team = await startHost(script, { server: { chunkCharacters: 8 } })
    team.host.chat('First thing.')
    await waitFor(
      () => team.events.some((event) => event.type === 'text-delta' && event.agent === 'lead'),
      () => "the first piece of the lead's reply",
    )
    team.host.chat('Second thing, while you stream.')
    expect(team.records('lead', 'assistant')).toEqual([])
    await team.host.whenIdle()

    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'lead')
    expect(requests).toHaveLength(2)
    expect(userMessages(requests[1])).toEqual(['First thing.', 'Second thing, while you stream.'])
  })

  it("the person's chat during a tool-calling turn comes after that turn, with its results", async () => {
    const held = gate()
    const script = heldFirstCall(
      'lead',
      held,
      toolCall('bash', { command: 'echo ran' }, 'tu_bash'),
      [text('Done both.')],
    )
    const team = await startHost(script)
    team.host.chat('Run it.')
    await whileInFlight(team, script, held, () => team.host.chat('And then stop.'))

    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'lead')
    expect(requests).toHaveLength(2)
    const messages = messagesOf(requests[1])
    expect(messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
    expect(userMessages(requests[1])[0]).toBe('Run it.')
    const last = messages[2]?.content as RequestBlock[]
    // Tool results first, as the API requires, then the chat that came meanwhile.
    expect(last.map((block) => block.type)).toEqual(['tool_result', 'text'])
    expect(last[0]?.tool_use_id).toBe('tu_bash')
    expect(last[1]?.text).toBe('And then stop.')

    // A restart rebuilds the view the model had, from the transcript alone (the client adds
    // the prompt-cache marks on the way out).
    const reopened = await team.restart()
    const rebuilt = toConversation(reopened.host.transcript('lead').records.slice(0, -1))
    const sent = JSON.stringify(messages, (key, value: unknown) =>
      key === 'cache_control' ? undefined : value,
    )
    expect(JSON.stringify(rebuilt)).toBe(sent)
  })

  it("a teammate's message sent during a final answer is injected after it and wakes the agent", async () => {
    const held = gate()
    const script = heldFirstCall('alice', held, text('Done with the task.'), [text('Got it.')])
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Do the task.' })
    await whileInFlight(team, script, held, () => {
      team.host.send({ to: 'alice', content: 'One more thing.' })
    })

    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'alice')
    expect(requests).toHaveLength(2)
    const users = userMessages(requests[1])
    expect(users).toHaveLength(2)
    expect(users[1]).toMatch(/^<inbox>.*One more thing\..*<\/inbox>$/s)
  })

  it('a line appended to the inbox by another program during a tool call turn reaches the model', async () => {
    const held = gate()
    const script = heldFirstCall('alice', held, toolCall('bash', { command: 'true' }, 'tu_1'), [
      text('Read it.'),
    ])
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Do the task.' })
    const line = JSON.stringify({
      type: 'message',
      from: 'lead',
      content: 'from a shell',
      timestamp: 1700000000.5,
    })
    await whileInFlight(team, script, held, async () => {
      const before = team.events.length
      appendFileSync(`${team.workspace}/.team/inbox/alice.jsonl`, `${line}\n`)
      // The watcher's signal is what makes the next look poll: wait for it before going on.
      await waitFor(
        () =>
          team.events
            .slice(before)
            .some((event) => event.type === 'inbox-changed' && event.name === 'alice'),
        () => "the watcher's report of alice's inbox",
        { timeout: 5000 },
      )
    })

    expect(script.unexpected).toEqual([])
    const requests = requestsOf(team, 'alice')
    expect(requests).toHaveLength(2)
    const last = messagesOf(requests[1]).at(-1)?.content as RequestBlock[]
    expect(last.map((block) => block.type)).toEqual(['tool_result', 'text'])
    expect(last[1]?.text).toMatch(/^<inbox>.*from a shell.*<\/inbox>$/s)
  })
})
