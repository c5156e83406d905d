import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall } from '../../../../src/offline-model/script'
import { requestsOf, resultText, toolResults } from '../../../helpers/agents'
import { bodyScript, requestIdIn, statusOf, waitForStatus } from '../../../helpers/faults'
import { startHost } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

describe('protocol state survives a restart', () => {
  it('a pending shutdown request is back after the restart, and answering it then works', async () => {
    let seenId: string | null = null
    const script = bodyScript((agent, call, body) => {
      if (agent !== 'alice') return undefined
      if (call === 1) return text('Ready.')
      if (call === 2) {
        seenId = requestIdIn(body, 'shutdown_request')
        return text('I will answer later.')
      }
      if (call === 3)
        return toolCall('shutdown_response', { request_id: seenId, approve: true, reason: 'Now.' })
      return undefined
    })
    const first = await startHost(script)
    await first.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await first.host.whenIdle()
    first.host.requestShutdown('alice')
    await waitFor(() => requestsOf(first, 'alice').length === 2)
    await first.host.whenIdle()
    const pending = first.host.protocolRequests()
    expect(pending).toEqual([
      expect.objectContaining({ id: seenId, kind: 'shutdown', status: 'pending', to: 'alice' }),
    ])

    const team = await first.restart()
    await team.host.whenIdle()
    expect(team.host.protocolRequests()).toEqual(pending)
    expect(requestsOf(team, 'alice')).toHaveLength(2)

    team.host.send({ to: 'alice', content: 'Please answer the shutdown request now.' })
    await waitForStatus(team, 'alice', 'shutdown')
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(team.host.protocolRequests()).toEqual([
      expect.objectContaining({ id: seenId, status: 'approved', reason: 'Now.' }),
    ])
  })

  it('a pending plan is back after the restart; the gate still holds; approving then works', async () => {
    const script = bodyScript((agent, call) => {
      if (agent !== 'alice') return agent === 'lead' ? text('Seen.') : undefined
      if (call === 1) return toolCall('submit_plan', { plan: 'Write out.txt.' })
      if (call === 2) return text('Waiting.')
      if (call === 3) return toolCall('write_file', { path: 'out.txt', content: 'early' }, 'tu_1')
      if (call === 5) return toolCall('write_file', { path: 'out.txt', content: 'late\n' }, 'tu_2')
      return call <= 6 ? text('Okay.') : undefined
    })
    const first = await startHost(script, { leadWakesOnMessages: false })
    await first.host.spawn({ name: 'alice', role: 'coder', prompt: 'Plan.', planFirst: true })
    await first.host.whenIdle()
    const pending = first.host.protocolRequests()
    expect(pending).toEqual([expect.objectContaining({ kind: 'plan', status: 'pending' })])
    const id = pending[0]?.id ?? ''
    const onDisk = readFileSync(join(first.workspace, '.team', 'protocols.json'), 'utf8')
    expect(onDisk).toContain(id)

    const team = await first.restart()
    await team.host.whenIdle()
    expect(team.host.protocolRequests()).toEqual(pending)
    team.host.send({ to: 'alice', content: 'Go ahead and write it.' })
    await waitFor(() => requestsOf(team, 'alice').length === 4)
    await team.host.whenIdle()
    const refused = toolResults(requestsOf(team, 'alice')[3]).get('tu_1')
    expect(refused?.is_error).toBe(true)
    expect(resultText(refused)).toMatch(/^Refused by the runtime/)
    expect(existsSync(join(team.workspace, 'out.txt'))).toBe(false)

    team.host.reviewPlan(id, true)
    await waitFor(
      () => requestsOf(team, 'alice').length === 6,
      () => 'the approved write',
    )
    await team.host.whenIdle()
    expect(script.unexpected).toEqual([])
    expect(toolResults(requestsOf(team, 'alice')[5]).get('tu_2')?.is_error).toBe(false)
    expect(readFileSync(join(team.workspace, 'out.txt'), 'utf8')).toBe('late\n')
    expect(team.host.protocolRequests()).toEqual([
      expect.objectContaining({ id, status: 'approved' }),
    ])
    expect(statusOf(team, 'alice')).toBe('idle')
  })
})
