import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall } from '../../../../src/offline-model/script'
import { gate, requestsOf, resultText, rosterOnDisk, toolResults } from '../../../helpers/agents'
import {
  allDistinct,
  bodyScript,
  eventsOf,
  inboxIn,
  lastRecord,
  rejectedLines,
  requestIdIn,
  statusOf,
} from '../../../helpers/faults'
import { deliveredIds, startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

function inboxMessages(team: HostUnderTest, name: string) {
  return team.records(name, 'inbox').flatMap((record) => record.messages)
}

describe('the shutdown protocol (lead tool → teammate tool)', () => {
  it('approve: the teammate finishes its step, goes shutdown; the lead gets the answer; settled approved', async () => {
    let shownId: string | null = null
    const script = bodyScript((agent, call, body) => {
      if (agent === 'lead')
        return call === 1
          ? toolCall('shutdown_request', { teammate: 'alice' }, 'tu_ask')
          : text('Noted.')
      if (agent !== 'alice') return undefined
      if (call === 1) return text('Ready for work.')
      if (call !== 2) return undefined
      shownId = requestIdIn(body, 'shutdown_request')
      // The current step: the answer, and one more tool call in the same turn.
      return {
        content: [
          {
            type: 'tool_use',
            id: 'tu_bye',
            name: 'shutdown_response',
            input: { request_id: shownId, approve: true, reason: 'All my work is done.' },
          },
          {
            type: 'tool_use',
            id: 'tu_note',
            name: 'write_file',
            input: { path: 'farewell.txt', content: 'bye\n' },
          },
        ],
      }
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait for instructions.' })
    await team.host.whenIdle()
    team.host.chat('Please shut alice down.')
    await waitFor(() => statusOf(team, 'alice') === 'shutdown' && statusOf(team, 'lead') === 'idle')
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])

    // The request reached alice with its id as an extra field, from the lead.
    const request = inboxMessages(team, 'alice').find((m) => m.type === 'shutdown_request')
    expect(request).toMatchObject({ from: 'lead', extra: { request_id: expect.any(String) } })
    const id = request?.extra.request_id as string
    expect(shownId).toBe(id)
    // The step finished (both calls ran), then no further model call.
    const aliceRequests = requestsOf(team, 'alice')
    expect(aliceRequests).toHaveLength(2)
    expect(existsSync(join(team.workspace, 'farewell.txt'))).toBe(true)
    const results = team.records('alice', 'tool-result')
    expect(results.map((r) => [r.tool_use_id, r.is_error])).toEqual([
      ['tu_bye', false],
      ['tu_note', false],
    ])
    // Shut down: roster, event, and the transcript's last record.
    expect(rosterOnDisk(team.workspace).find((m) => m.name === 'alice')?.status).toBe('shutdown')
    expect(
      eventsOf(team, 'agent-status-changed').some(
        (e) => e.name === 'alice' && e.status === 'shutdown',
      ),
    ).toBe(true)
    const last = lastRecord(team, 'alice')
    expect(last).toMatchObject({ kind: 'status', status: 'shutdown' })
    expect(last?.kind === 'status' && last.reason).toContain(id)
    // The lead received the answer once; the request is settled.
    const answers = inboxMessages(team, 'lead').filter((m) => m.type === 'shutdown_response')
    expect(answers).toEqual([
      expect.objectContaining({
        from: 'alice',
        extra: expect.objectContaining({ request_id: id, approve: true }),
      }),
    ])
    expect(team.host.protocolRequests()).toEqual([
      expect.objectContaining({
        id,
        kind: 'shutdown',
        from: 'lead',
        to: 'alice',
        status: 'approved',
        reason: 'All my work is done.',
      }),
    ])
    const changes = eventsOf(team, 'protocol-changed').filter((e) => e.request.id === id)
    expect(changes.map((e) => e.request.status)).toEqual(['pending', 'approved'])
    expect(allDistinct(deliveredIds(team, 'alice'))).toBe(true)
    expect(allDistinct(deliveredIds(team, 'lead'))).toBe(true)
    expect(rejectedLines(team, 'lead')).toEqual([])
    expect(team.server.requests.every((r) => !('error' in r.reply))).toBe(true)
  })

  it('decline: the teammate keeps working, then idles; the request is settled rejected', async () => {
    const script = bodyScript((agent, call, body) => {
      if (agent === 'lead')
        return call === 1 ? toolCall('shutdown_request', { teammate: 'alice' }) : text('Noted.')
      if (agent !== 'alice') return undefined
      if (call === 1) return text('Ready.')
      if (call === 2)
        return toolCall(
          'shutdown_response',
          {
            request_id: requestIdIn(body, 'shutdown_request'),
            approve: false,
            reason: 'Tests still running.',
          },
          'tu_no',
        )
      return call === 3 ? text('Still working on the tests.') : undefined
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()
    team.host.chat('Shut alice down.')
    await waitFor(() => team.host.protocolRequests()[0]?.status === 'rejected')
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(requestsOf(team, 'alice')).toHaveLength(3)
    expect(resultText(toolResults(requestsOf(team, 'alice')[2]).get('tu_no'))).toMatch(/Declined/)
    expect(statusOf(team, 'alice')).toBe('idle')
    expect(team.records('alice', 'status').filter((r) => r.status === 'shutdown')).toEqual([])
    expect(team.host.protocolRequests()[0]).toMatchObject({
      status: 'rejected',
      reason: 'Tests still running.',
    })
  })

  it('rejects a response from another agent, with an unknown id, or for a settled request', async () => {
    const script = bodyScript((agent, call) => {
      if (agent === 'lead') return text('Noted.')
      const id = team.host.protocolRequests()[0]?.id
      if (agent === 'bob')
        return call === 1
          ? text('Ready.')
          : call === 2
            ? toolCall('shutdown_response', { request_id: id, approve: true }, 'tu_bob')
            : call === 3
              ? text('Fine.')
              : undefined
      if (agent !== 'alice') return undefined
      if (call === 1) return text('Ready.')
      if (call === 2) return text('Let me finish first.')
      if (call === 3)
        return toolCall('shutdown_response', { request_id: id, approve: true, reason: 'Finished.' })
      return undefined
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'Wait.' })
    await team.host.whenIdle()
    team.host.requestShutdown('alice', 'lead')
    await waitFor(() => team.host.protocolRequests().length === 1)
    await team.host.whenIdle()
    const id = team.host.protocolRequests()[0]?.id as string
    const before = team.host.protocolRequests()
    expect(before[0]).toMatchObject({ status: 'pending', to: 'alice' })

    // bob's own tool refuses to answer alice's request, and nothing reaches the lead.
    team.host.send({ to: 'bob', content: 'Answer that shutdown request.' })
    await waitFor(() => requestsOf(team, 'bob').length === 3)
    await team.host.whenIdle()
    const bobResult = toolResults(requestsOf(team, 'bob')[2]).get('tu_bob')
    expect(bobResult?.is_error).toBe(true)
    expect(resultText(bobResult)).toMatch(/made to "alice"/)

    const forged = (from: string, requestId: string, approve: boolean): void => {
      team.host.send({
        from,
        to: 'lead',
        type: 'shutdown_response',
        content: 'Shutting down.',
        extra: { request_id: requestId, approve },
      })
    }
    const rejectedSoFar = async (count: number): Promise<void> => {
      await waitFor(
        () => rejectedLines(team, 'lead').length === count,
        () => `${count} rejected lines of lead`,
      )
      await team.host.whenIdle()
    }
    forged('bob', id, true)
    await rejectedSoFar(1)
    expect(team.host.protocolRequests()).toEqual(before)
    forged('alice', 'shutdown-unknown', true)
    await rejectedSoFar(2)
    expect(team.host.protocolRequests()).toEqual(before)
    expect(requestsOf(team, 'lead')).toHaveLength(0)
    expect(statusOf(team, 'alice')).toBe('idle')

    // The real answer settles it; a second answer afterwards is rejected.
    team.host.send({ to: 'alice', content: 'You may answer now.' })
    await waitFor(() => team.host.protocolRequests()[0]?.status === 'approved')
    await team.host.whenIdle()
    const settled = team.host.protocolRequests()
    forged('alice', id, false)
    await rejectedSoFar(3)
    expect(team.host.protocolRequests()).toEqual(settled)
    expect(settled[0]).toMatchObject({ status: 'approved', reason: 'Finished.' })

    const reasons = rejectedLines(team, 'lead').map((line) => line.reason)
    expect(reasons[0]).toMatch(/made to "alice", not "bob"/)
    expect(reasons[1]).toMatch(/unknown shutdown request shutdown-unknown/)
    expect(reasons[2]).toMatch(/already settled \(approved\)/)
    const events = eventsOf(team, 'message-rejected').filter((e) => e.inbox === 'lead')
    expect(events.map((e) => e.reason)).toEqual(reasons)
    expect(inboxMessages(team, 'lead').filter((m) => m.type === 'shutdown_response')).toHaveLength(
      1,
    )
    expect(statusOf(team, 'alice')).toBe('shutdown')
    expect(statusOf(team, 'bob')).toBe('idle')
    expect(script.unexpected).toEqual([])
  })

  it('keeps the messages that arrived in the same batch as the request', async () => {
    const held = gate()
    let arrived = false
    const script = bodyScript((agent, call, body) => {
      if (agent !== 'alice') return undefined
      if (call === 1) {
        arrived = true
        return held.hold(text('First task done.'))
      }
      if (call !== 2) return undefined
      return toolCall('shutdown_response', {
        request_id: requestIdIn(body, 'shutdown_request'),
        approve: true,
      })
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'A task.' })
    await waitFor(
      () => arrived,
      () => "alice's first model request",
    )
    const before = team.host.send({ to: 'alice', content: 'Note A, before the request.' })
    team.host.requestShutdown('alice')
    const after = team.host.send({ to: 'alice', content: 'Note B, after the request.' })
    held.open()
    await waitFor(() => statusOf(team, 'alice') === 'shutdown')
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])

    const batches = team.records('alice', 'inbox')
    expect(batches).toHaveLength(1)
    expect(batches[0]?.messages.map((m) => m.type)).toEqual([
      'message',
      'shutdown_request',
      'message',
    ])
    expect(batches[0]?.messages.map((m) => m.id)).toEqual([before.id, expect.any(String), after.id])
    const second = requestsOf(team, 'alice')[1]
    expect(second).toBeDefined()
    const shown = second ? inboxIn(second.body) : []
    expect(shown.map((m) => m.content)).toEqual([
      before.content,
      expect.stringContaining('shut down'),
      after.content,
    ])
    // The person asked: the answer settles the request at once.
    expect(team.host.protocolRequests()).toEqual([
      expect.objectContaining({ from: 'user', to: 'alice', status: 'approved' }),
    ])
    expect(allDistinct(deliveredIds(team, 'alice'))).toBe(true)
  })
})
