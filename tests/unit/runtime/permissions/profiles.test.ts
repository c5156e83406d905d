import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, type Reply } from '../../../../src/offline-model/script'
import { MUTATING_PROFILE_TOOLS } from '../../../../src/shared/profiles'
import { agentScript, requestsOf, resultText, toolResults } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'

function toolNames(request: { body: { tools?: unknown } } | undefined): string[] {
  return ((request?.body.tools as { name: string }[] | undefined) ?? []).map((tool) => tool.name)
}

describe('permission profiles', () => {
  it('a reviewer is never offered a mutating tool, and a call to one anyway is an is_error result', async () => {
    const turns: Reply[] = [
      {
        content: [
          {
            type: 'tool_use',
            id: 'tu_write',
            name: 'write_file',
            input: { path: 'x.txt', content: 'no' },
          },
          { type: 'tool_use', id: 'tu_bash', name: 'bash', input: { command: 'touch y.txt' } },
          {
            type: 'tool_use',
            id: 'tu_edit',
            name: 'edit_file',
            input: { path: 'a.txt', old_text: 'a', new_text: 'b' },
          },
          { type: 'tool_use', id: 'tu_grep', name: 'grep', input: { pattern: 'hello' } },
        ],
      },
      text('Reviewed.'),
    ]
    const team = await startHost(
      agentScript((agent, call) => (agent === 'rita' ? turns[call - 1] : undefined)),
      { leadWakesOnMessages: false },
    )
    writeFileSync(join(team.workspace, 'a.txt'), 'a hello\n')
    await team.host.spawn({
      name: 'rita',
      role: 'reviewer',
      prompt: 'Review.',
      profile: 'reviewer',
    })
    await team.host.whenIdle()

    const requests = requestsOf(team, 'rita')
    expect(requests).toHaveLength(2)
    for (const request of requests) {
      const offered = toolNames(request)
      expect(offered).toEqual(expect.arrayContaining(['read_file', 'grep', 'glob', 'send_message']))
      for (const tool of MUTATING_PROFILE_TOOLS) expect(offered).not.toContain(tool)
    }
    const results = toolResults(requests[1])
    for (const id of ['tu_write', 'tu_bash', 'tu_edit']) {
      expect(results.get(id)?.is_error).toBe(true)
      expect(resultText(results.get(id))).toMatch(
        /is not among the tools of rita's profile "reviewer"/,
      )
    }
    expect(resultText(results.get('tu_grep'))).toBe('a.txt:1: a hello')
    expect(existsSync(join(team.workspace, 'x.txt'))).toBe(false)
    expect(existsSync(join(team.workspace, 'y.txt'))).toBe(false)
    expect(readFileSync(join(team.workspace, 'a.txt'), 'utf8')).toBe('a hello\n')
    expect(team.host.roster().members[0]?.name).toBe('rita')
    expect(team.host.permission('rita').profile.name).toBe('reviewer')
  })

  it('a profile changed later applies from the next model call', async () => {
    const turns: Reply[] = [text('First.'), text('Second.')]
    const team = await startHost(
      agentScript((agent, call) => (agent === 'tess' ? turns[call - 1] : undefined)),
      { leadWakesOnMessages: false },
    )
    await team.host.spawn({ name: 'tess', role: 'tester', prompt: 'Go.', profile: 'tester' })
    await team.host.whenIdle()
    expect(toolNames(requestsOf(team, 'tess')[0])).toContain('bash')
    expect(toolNames(requestsOf(team, 'tess')[0])).not.toContain('edit_file')

    expect(team.host.setProfile('tess', { profile: 'reviewer', approval: 'ask' })).toMatch(
      /tess: profile reviewer \(.*\), approvals ask\./,
    )
    team.host.send({ to: 'tess', content: 'again' })
    await team.host.whenIdle()
    expect(toolNames(requestsOf(team, 'tess')[1])).not.toContain('bash')
    const member = JSON.parse(readFileSync(join(team.workspace, '.team', 'config.json'), 'utf8'))
      .members[0] as Record<string, unknown>
    expect(member).toMatchObject({ profile: 'reviewer', approval: 'ask' })
    expect(() => team.host.setProfile('tess', { profile: 'nobody' })).toThrow(
      /There is no profile "nobody"/,
    )
    expect(() => team.host.setProfile('tess', { profile: '../x' })).toThrow(/Invalid profile/)
  })

  it('custom profiles round-trip through .team/profiles.json and a restart', async () => {
    const turns: Reply[] = [text('Hi.')]
    const team = await startHost(
      agentScript((agent, call) => (agent === 'dora' ? turns[call - 1] : undefined)),
      { leadWakesOnMessages: false },
    )
    const custom = {
      name: 'docs-writer',
      description: 'Writes docs, no shell.',
      tools: ['read_file', 'write_file', 'glob', 'send_message'] as const,
      approval: 'ask' as const,
    }
    team.host.profiles.save({ ...custom, tools: [...custom.tools] })
    const again = await team.restart()
    const found = again.host.profiles.list().find((profile) => profile.name === 'docs-writer')
    // A profile saved without a word on MCP gets the servers (the schema's default).
    expect(found).toEqual({ ...custom, tools: [...custom.tools], mcp: true, builtIn: false })
    await again.host.spawn({ name: 'dora', role: 'docs', prompt: 'Write.', profile: 'docs-writer' })
    await again.host.whenIdle()
    expect(toolNames(requestsOf(again, 'dora')[0]).sort()).toEqual(
      [
        'glob',
        'read_file',
        'read_inbox',
        'send_message',
        'shutdown_response',
        'submit_plan',
        'write_file',
        // The task board's tools, which every profile has.
        'list_tasks',
        'claim_task',
        'complete_task',
        'update_task',
      ].sort(),
    )
    expect(again.host.permission('dora').approval).toBe('ask')
    expect(() => again.host.profiles.save({ ...custom, name: 'reviewer' })).toThrow(/built-in/)
    expect(() => again.host.profiles.save({ ...custom, tools: ['rm_rf'] })).toThrow(
      /Invalid profile/,
    )
  })

  it('a damaged or hostile profiles file leaves only the built-ins, and its agents read-only', async () => {
    const team = await startHost(
      agentScript((agent, call) => (agent === 'will' && call === 1 ? text('Ok.') : undefined)),
      { leadWakesOnMessages: false },
    )
    team.host.profiles.save({ name: 'wide', tools: ['bash'], approval: 'auto' })
    const path = join(team.workspace, '.team', 'profiles.json')
    await team.host.spawn({ name: 'will', role: 'x', prompt: 'Go.', profile: 'wide' })
    await team.host.whenIdle()
    const hostile = [
      '{not json',
      JSON.stringify({ v: 1, profiles: [{ name: 'reviewer', tools: ['bash'], approval: 'auto' }] }),
      JSON.stringify({
        v: 1,
        profiles: [{ name: 'wide', tools: ['bash'], approval: 'auto', __proto__x: 1 }],
      }),
      JSON.stringify({ v: 2, profiles: [] }),
      '['.repeat(5000),
    ]
    for (const content of hostile) {
      writeFileSync(path, content)
      expect(team.host.profiles.problem()).toMatch(/profiles.json/)
      expect(team.host.profiles.list().map((profile) => profile.name)).toEqual([
        'reviewer',
        'tester',
        'implementer',
        'lead',
      ])
      const permission = team.host.permission('will')
      expect(permission.profile.tools).not.toContain('bash')
      expect(permission.problem).toMatch(/"wide" is not defined/)
      // Never overwritten while damaged.
      expect(() =>
        team.host.profiles.save({ name: 'other', tools: [], approval: 'auto' }),
      ).toThrow()
      expect(readFileSync(path, 'utf8')).toBe(content)
    }
  })
})
