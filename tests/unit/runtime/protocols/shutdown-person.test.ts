import { describe, expect, it } from 'vitest'
import { TeamError } from '../../../../src/shared/errors'
import { text } from '../../../../src/offline-model/script'
import { conversationText, requestsOf } from '../../../helpers/agents'
import { cli } from '../../../helpers/cli'
import {
  allDistinct,
  approvingTeammate,
  bodyScript,
  eventsOf,
  lastRecord,
  statusOf,
  waitForStatus,
} from '../../../helpers/faults'
import { deliveredIds, startHost } from '../../../helpers/host'

describe('the shutdown protocol from the person', () => {
  it('host.requestShutdown: approved at once; the teammate is re-spawned with its memory', async () => {
    const script = bodyScript((agent, call, body) => {
      if (agent !== 'alice') return undefined
      if (call === 1) return text('The code word is teapot.')
      if (call === 3) return text('I remember: teapot.')
      return call === 2 ? approvingTeammate(body, 'no request?') : undefined
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Pick a code word.' })
    await team.host.whenIdle()

    const id = team.host.requestShutdown('alice')
    expect(id).toMatch(/^shutdown-/)
    await waitForStatus(team, 'alice', 'shutdown')
    await team.host.whenIdle()
    expect(team.host.protocolRequests()).toEqual([
      expect.objectContaining({
        id,
        from: 'user',
        to: 'alice',
        status: 'approved',
        reason: 'My work is done.',
      }),
    ])
    expect(lastRecord(team, 'alice')).toMatchObject({ kind: 'status', status: 'shutdown' })
    // Asking a shut-down teammate again is refused with a clear error.
    expect(() => team.host.requestShutdown('alice')).toThrow(TeamError)
    expect(() => team.host.requestShutdown('alice')).toThrow(/already shut down/)

    await team.host.spawn({ name: 'alice', role: 'reviewer', prompt: 'What was the code word?' })
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(statusOf(team, 'alice')).toBe('idle')
    const memory = conversationText(requestsOf(team, 'alice')[2])
    expect(memory).toContain('The code word is teapot.')
    expect(memory).toContain(id)
    expect(memory).toContain('What was the code word?')
    expect(team.server.requests.every((request) => !('error' in request.reply))).toBe(true)
    expect(allDistinct(deliveredIds(team, 'alice'))).toBe(true)
  })

  it('a re-spawn closes the settled request, so no stale "shutting down" survives a restart', async () => {
    const script = bodyScript((agent, call, body) => {
      if (agent !== 'alice') return undefined
      if (call === 2) return approvingTeammate(body, 'no request?')
      return text(`Step ${call}.`)
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()
    const id = team.host.requestShutdown('alice')
    await waitForStatus(team, 'alice', 'shutdown')
    await team.host.whenIdle()
    expect(team.host.protocolRequests()[0]).toMatchObject({ id, closed_at: null })

    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Back to work.' })
    await team.host.whenIdle()
    expect(statusOf(team, 'alice')).toBe('idle')
    // The UI hears it at once (the roster's tag goes), and the record keeps it.
    expect(eventsOf(team, 'protocol-changed').at(-1)?.request).toMatchObject({
      id,
      status: 'approved',
      closed: true,
    })
    expect(team.host.protocolRequests()[0]?.closed_at).toEqual(expect.any(Number))

    const again = await team.restart()
    expect(again.host.protocolRequests()[0]).toMatchObject({
      id,
      status: 'approved',
      closed_at: expect.any(Number),
    })
    expect(script.unexpected).toEqual([])
  })

  it('agent-teams shutdown <name>: through the inbox of the running team', async () => {
    const script = bodyScript((agent, call, body) =>
      agent === 'alice' ? approvingTeammate(body, 'Ready.') : undefined,
    )
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()

    const result = await cli(['shutdown', 'alice', '--workspace', team.workspace, '--json'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const id = (JSON.parse(result.lines[0] ?? '{}') as { request_id?: string }).request_id
    expect(typeof id).toBe('string')
    await waitForStatus(team, 'alice', 'shutdown')
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(team.host.protocolRequests()).toEqual([
      expect.objectContaining({ id, from: 'user', to: 'alice', status: 'approved' }),
    ])
    expect(
      eventsOf(team, 'agent-status-changed').filter(
        (event) => event.name === 'alice' && event.status === 'shutdown',
      ),
    ).toHaveLength(1)
    expect(requestsOf(team, 'alice')).toHaveLength(2)

    const lead = await cli(['shutdown', 'lead', '--workspace', team.workspace])
    expect(lead.code).toBe(1)
    expect(lead.stderr).toMatch(/lead is not shut down/)
    const listed = await cli(['requests', '--workspace', team.workspace])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(`${id} [approved] shutdown of alice, asked by user`)
  })
})
