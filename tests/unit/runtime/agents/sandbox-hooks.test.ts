import { existsSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it, onTestFinished } from 'vitest'
import type { BlockedAction } from '../../../../src/shared/sandbox'
import { queueScript, text } from '../../../../src/main/runtime/offline-model/script'
import { defaultBashSandbox } from '../../../../src/main/runtime/tools/bash-sandbox'
import { requestsOf, resultText, toolResults } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
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

    // The person allows the host for this team (Settings writes this file).
    writeFileSync(
      join(team.workspace, '.team', 'sandbox.json'),
      JSON.stringify({ version: 1, allowedHosts: [`127.0.0.1:${port}`] }),
    )
    team.host.chat('Again.')
    await team.host.whenIdle()
    script.assertConsumed()
    expect(resultText(toolResults(requestsOf(team, 'lead')[3]).get('after'))).toContain(
      'registry answer',
    )
    expect(existsSync(join(outside, 'planted'))).toBe(false)
  })
})
