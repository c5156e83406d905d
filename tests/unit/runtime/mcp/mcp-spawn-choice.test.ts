import { describe, expect, it } from 'vitest'
import { parseControlLine } from '../../../../src/shared/control'
import { rosterSchema } from '../../../../src/shared/roster'
import { mayUseServer } from '../../../../src/runtime/mcp/agent-servers'
import { main } from '../../../../src/cli/main'
import { Capture } from '../../../helpers/streams'
import { tempWorkspace } from '../../../helpers/workspace'

describe('the MCP servers chosen at spawn', () => {
  it('a control line carries them, checked by the server name rule', () => {
    const line = (servers: unknown) =>
      parseControlLine(
        JSON.stringify({
          command: 'spawn',
          name: 'alice',
          role: 'r',
          prompt: 'p',
          mcp_servers: servers,
        }),
      )
    expect(line(['notes', 'tracker'])).toMatchObject({
      ok: true,
      command: { command: 'spawn', mcpServers: ['notes', 'tracker'] },
    })
    expect(line(null)).toMatchObject({ ok: true, command: { mcpServers: null } })
    const bad = line(['../x'])
    expect(bad.ok).toBe(false)
    expect(bad.ok ? '' : bad.reason).toContain('must be a server name')
    expect(line('notes').ok).toBe(false)
  })

  it('config.json keeps them per member; a wrong one makes the roster invalid', () => {
    const roster = (servers: unknown) =>
      rosterSchema.safeParse({
        team_name: 't',
        members: [{ name: 'alice', role: 'r', status: 'idle', mcp_servers: servers }],
      })
    expect(roster(['notes']).success).toBe(true)
    expect(roster(null).success).toBe(true)
    expect(roster(['a__b']).success).toBe(false)
    expect(roster([1]).success).toBe(false)
  })

  it('every server by default, only the chosen ones otherwise, none for an empty choice', () => {
    const member = (servers?: string[] | null) => ({
      name: 'alice',
      role: 'r',
      status: 'idle' as const,
      ...(servers === undefined ? {} : { mcp_servers: servers }),
    })
    expect(mayUseServer(undefined, 'notes')).toBe(true)
    expect(mayUseServer(member(), 'notes')).toBe(true)
    expect(mayUseServer(member(null), 'notes')).toBe(true)
    expect(mayUseServer(member(['tracker']), 'notes')).toBe(false)
    expect(mayUseServer(member(['tracker']), 'tracker')).toBe(true)
    expect(mayUseServer(member([]), 'tracker')).toBe(false)
  })

  it('spawn --mcp refuses a wrong name before anything is sent', async () => {
    const stdout = new Capture()
    const stderr = new Capture()
    const code = await main(
      [
        'spawn',
        'alice',
        'go',
        '--role',
        'coder',
        '--mcp',
        'notes,bad name',
        '--workspace',
        tempWorkspace().dir,
      ],
      { stdout, stderr },
    )
    expect(code).toBe(2)
    expect(stderr.text).toContain('"bad name" is not a server name')
    const unknown = new Capture()
    const refused = await main(
      [
        'spawn',
        'alice',
        'go',
        '--role',
        'coder',
        '--mcp',
        'notes',
        '--workspace',
        tempWorkspace().dir,
      ],
      { stdout, stderr: unknown },
    )
    expect(refused).toBe(1)
    expect(unknown.text).toContain('No MCP server "notes" in this workspace; it has none.')
  })
})
