import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../src/offline-model/script'
import { USER } from '../../src/shared/names'
import type { NeedsYouEntry } from '../../src/shared/needs-you'
import { agentScript, requestsOf, resultText, toolResults } from '../helpers/agents'
import { cli } from '../helpers/cli'
import { startHost, type HostUnderTest } from '../helpers/host'
import { MCP_TRUSTED_FOR_RUN, stdioEntry, writeMcpJson } from '../helpers/mcp'
import { waitFor } from '../helpers/wait'
import { tempWorkspace } from '../helpers/workspace'

const WAIT = { timeout: 20_000, interval: 20 }

/**
 * A team whose workspace runs the notes MCP server, and a teammate `alice` whose model (a
 * prompt-injected agent) makes `turns`. Its `mark` tool appends to a file (in the workspace,
 * where the server, sandboxed, may write) and claims `readOnlyHint`: a server's claim, which
 * must not let a call through.
 */
async function teamWithNotes(turns: (marker: string) => Reply[]): Promise<{
  team: HostUnderTest
  marker: string
}> {
  const { dir } = tempWorkspace()
  writeMcpJson(dir, { notes: stdioEntry() })
  const marker = join(dir, 'marker.txt')
  const replies = turns(marker)
  const team = await startHost(
    agentScript((agent, call) => (agent === 'alice' ? replies[call - 1] : undefined)),
    { workspace: dir, leadWakesOnMessages: false, ...MCP_TRUSTED_FOR_RUN },
  )
  return { team, marker }
}

function markerText(marker: string): string | null {
  return existsSync(marker) ? readFileSync(marker, 'utf8') : null
}

async function nextPending(team: HostUnderTest, count: number): Promise<NeedsYouEntry> {
  await waitFor(
    () =>
      team.host.needsYou.pending().length === 1 && team.host.needsYou.entries().length === count,
    () => `entry ${count} pending (have ${JSON.stringify(team.host.needsYou.entries())})`,
    WAIT,
  )
  return team.host.needsYou.pending()[0] as NeedsYouEntry
}

describe('MCP tools go through the plan gate and the approvals', () => {
  it('a plan-first teammate cannot call an MCP tool before its plan is approved', async () => {
    const { team, marker } = await teamWithNotes((path) => [
      toolCall('mcp__notes__mark', { path, line: 'before approval' }, 'tu_early'),
      toolCall('submit_plan', { plan: 'Mark the file.' }, 'tu_plan'),
      text('Waiting for approval.'),
      toolCall('mcp__notes__mark', { path, line: 'after approval' }, 'tu_late'),
      text('Done.'),
    ])
    await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Mark.',
      planFirst: true,
      by: USER,
    })
    await team.host.whenIdle()

    const early = toolResults(requestsOf(team, 'alice')[1]).get('tu_early')
    expect(early?.is_error).toBe(true)
    expect(resultText(early)).toMatch(/^Refused by the runtime: .*MCP tools/)
    // The server never ran it.
    expect(markerText(marker)).toBeNull()

    const plan = team.host.protocolRequests().find((request) => request.kind === 'plan')
    team.host.reviewPlan(plan?.id ?? '', true)
    await waitFor(
      () => requestsOf(team, 'alice').length === 5,
      () => 'alice goes on after the approval',
      WAIT,
    )
    await team.host.whenIdle()
    expect(toolResults(requestsOf(team, 'alice')[4]).get('tu_late')?.is_error).toBe(false)
    expect(markerText(marker)).toBe('after approval\n')
  }, 60_000)

  it('in ask mode every MCP call waits for the person; approve always covers that one tool', async () => {
    const { team, marker } = await teamWithNotes((path) => [
      toolCall('mcp__notes__mark', { path, line: 'denied' }, 'tu_denied'),
      toolCall('mcp__notes__mark', { path, line: 'once' }, 'tu_once'),
      toolCall('mcp__notes__mark', { path, line: 'always' }, 'tu_always'),
      toolCall('mcp__notes__mark', { path, line: 'ridden' }, 'tu_ridden'),
      toolCall('mcp__notes__echo', { text: 'hi' }, 'tu_echo'),
      text('Done.'),
    ])
    await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Mark.',
      approval: 'ask',
      by: USER,
    })

    const denied = await nextPending(team, 1)
    expect(denied).toMatchObject({
      agent: 'alice',
      kind: 'tool',
      tool: 'mcp__notes__mark',
      summary: 'mcp__notes__mark',
      detail: JSON.stringify({ path: marker, line: 'denied' }, null, 2),
      pattern: 'mcp__notes__mark',
    })
    expect(markerText(marker)).toBeNull()
    team.host.answerNeedsYou({ id: denied.id, decision: 'deny', text: 'not that file' })

    const once = await nextPending(team, 2)
    expect(markerText(marker)).toBeNull()
    team.host.answerNeedsYou({ id: once.id, decision: 'approve' })

    // The person answers from the CLI: the queue shows the entry, approve --always answers it.
    const always = await nextPending(team, 3)
    expect(markerText(marker)).toBe('once\n')
    const ws = ['--workspace', team.workspace]
    const listed = await cli(['queue', ...ws])
    expect(listed.stdout).toContain(`${always.id} tool`)
    expect(listed.stdout).toContain('mcp__notes__mark')
    const approved = await cli(['approve', always.id, '--always', ...ws])
    expect(approved.stderr).toBe('')
    expect(approved.code).toBe(0)

    // The same tool now runs without asking; another tool of the same server still asks.
    const echo = await nextPending(team, 4)
    expect(echo.summary).toBe('mcp__notes__echo')
    expect(markerText(marker)).toBe('once\nalways\nridden\n')
    team.host.answerNeedsYou({ id: echo.id, decision: 'approve' })
    await team.host.whenIdle()

    const results = team.records('alice', 'tool-result')
    expect(results.map((result) => [result.tool_use_id, result.is_error])).toEqual([
      ['tu_denied', true],
      ['tu_once', false],
      ['tu_always', false],
      ['tu_ridden', false],
      ['tu_echo', false],
    ])
    expect(results[0]?.content).toBe('The person denied this call: not that file')
    expect(results[4]?.content).toBe('echo: hi')
    const file = JSON.parse(
      readFileSync(join(team.workspace, '.team', 'needs-you.json'), 'utf8'),
    ) as { rules: unknown[] }
    expect(file.rules).toEqual([
      expect.objectContaining({ agent: 'alice', tool: 'mcp', pattern: 'mcp__notes__mark' }),
    ])
  }, 60_000)

  it('a long MCP input is cut in the entry, saying how much was left out', async () => {
    const long = 'x'.repeat(250_000)
    const { team } = await teamWithNotes(() => [
      toolCall('mcp__notes__echo', { text: long }, 'tu_long'),
      text('Understood.'),
    ])
    await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Echo.',
      approval: 'ask',
      by: USER,
    })
    const entry = await nextPending(team, 1)
    const full = JSON.stringify({ text: long }, null, 2)
    expect(entry.detail).toBe(
      `${full.slice(0, 200_000)}\n[input cut: ${full.length - 200_000} more characters]`,
    )
    team.host.answerNeedsYou({ id: entry.id, decision: 'deny', text: 'too long to read' })
    await team.host.whenIdle()
    expect(team.records('alice', 'tool-result')[0]).toMatchObject({
      is_error: true,
      content: 'The person denied this call: too long to read',
    })
  }, 60_000)
})
