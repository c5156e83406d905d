import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import type { BlockedAction } from '../../../../src/shared/sandbox'
import { queueScript, text } from '../../../../src/offline-model/script'
import { defaultBashSandbox } from '../../../../src/runtime/tools/bash-sandbox'
import { requestsOf, resultText, toolResults } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'
import { sandboxSkipReason, tempFolder } from '../../../helpers/sandbox'

const skipReason = sandboxSkipReason()
if (skipReason !== null) console.info(`[skipped] sandbox through the team host: ${skipReason}`)

afterAll(() => defaultBashSandbox.close())

describe.skipIf(skipReason !== null)("an agent's bash through the team host", () => {
  it("uses the team's allow-list and reports what it blocked to the host's hook", async () => {
    const server = createServer((_request, response) => response.end('registry answer\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const port = (server.address() as AddressInfo).port
    const outside = tempFolder('agent-teams-hook-outside-')
    const command =
      `NO_PROXY= no_proxy= curl -sS --max-time 20 http://127.0.0.1:${port}/; ` +
      `touch ${outside}/planted; echo done`
    const call = (id: string) => ({
      content: [{ type: 'tool_use' as const, id, name: 'bash', input: { command } }],
    })
    const script = queueScript({
      lead: [call('before'), text('Blocked.'), call('after'), text('Reached it.')],
    })
    const blocked: BlockedAction[] = []
    const team = await startHost(script, {
      leadWakesOnMessages: false,
      sandboxHooks: { onBlocked: (agent, actions) => blocked.push(...actions) },
    })

    team.host.chat('Fetch it.')
    await team.host.whenIdle()
    expect(resultText(toolResults(requestsOf(team, 'lead')[1]).get('before'))).not.toContain(
      'registry answer',
    )
    expect(blocked).toEqual([
      { kind: 'blocked-write', path: `${outside}/planted`, command },
      { kind: 'blocked-network', host: '127.0.0.1', port, command },
    ])

    // The person allows the host for this team (as Settings does).
    team.host.setAllowedHosts([`127.0.0.1:${port}`])
    team.host.chat('Again.')
    await team.host.whenIdle()
    script.assertConsumed()
    expect(resultText(toolResults(requestsOf(team, 'lead')[3]).get('after'))).toContain(
      'registry answer',
    )
    expect(existsSync(join(outside, 'planted'))).toBe(false)
  })

  it('puts what it blocked in the Needs-you queue; approving a connection allows its host', async () => {
    const server = createServer((_request, response) => response.end('registry answer\n'))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())))
    const port = (server.address() as AddressInfo).port
    const command = `NO_PROXY= no_proxy= curl -sS --max-time 20 http://127.0.0.1:${port}/`
    const script = queueScript({
      lead: [
        { content: [{ type: 'tool_use', id: 'first', name: 'bash', input: { command } }] },
        text('Blocked; waiting for the person.'),
        text('Noted.'),
      ],
    })
    const team = await startHost(script, { leadWakesOnMessages: false })

    team.host.chat('Fetch it.')
    await team.host.whenIdle()
    const entry = team.host.needsYou
      .entries()
      .find((candidate) => candidate.summary.includes('blocked a connection'))
    expect(entry).toMatchObject({
      agent: 'lead',
      status: 'pending',
      summary: `The sandbox blocked a connection to 127.0.0.1:${port}`,
    })
    expect(entry?.detail).toContain(command)

    team.host.answerNeedsYou({ id: entry?.id ?? '', decision: 'approve' })
    await waitFor(
      () => existsSync(join(team.workspace, '.team', 'sandbox.json')),
      () => 'the allow-list written',
    )
    expect(
      JSON.parse(readFileSync(join(team.workspace, '.team', 'sandbox.json'), 'utf8')),
    ).toMatchObject({ allowedHosts: [`127.0.0.1:${port}`] })
    // The agent is told, in its inbox, so it can run the command again.
    await waitFor(
      () =>
        team
          .records('lead', 'inbox')
          .some((record) =>
            record.messages.some((message) => message.content.includes('run the command again')),
          ),
      () => 'the message to the lead',
      { timeout: 15_000 },
    )
  })
})
