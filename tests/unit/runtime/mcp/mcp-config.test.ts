import { execFileSync } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readMcpConfiguration } from '../../../../src/runtime/mcp/config'
import { addTeamServer, removeTeamServer } from '../../../../src/runtime/mcp/team-file'
import { expandVariables } from '../../../../src/runtime/mcp/variables'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import { tempWorkspace } from '../../../helpers/workspace'

function workspaceWith(text: string): TeamPaths {
  const { dir } = tempWorkspace()
  writeFileSync(join(dir, '.mcp.json'), text)
  return new TeamPaths(dir)
}

const env = { HOME: '/home/x', TOKEN: 'abc123', EMPTY: '' }

describe('.mcp.json', () => {
  it('reads Claude Code format, stdio and http, with ${VAR} and ${VAR:-default}', () => {
    const paths = workspaceWith(
      JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', 'server', '${HOME}/x'], env: { KEY: '${TOKEN}' } },
          api: {
            type: 'http',
            url: 'https://api.example/mcp?key=${TOKEN}',
            headers: { Authorization: 'Bearer ${TOKEN}', Region: '${REGION:-eu}' },
          },
        },
      }),
    )
    const config = readMcpConfiguration(paths, env)
    expect(config.problems).toEqual([])
    const [files, api] = config.servers
    expect(files).toMatchObject({
      name: 'files',
      transport: 'stdio',
      problem: null,
      launch: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'server', '/home/x/x'],
        env: { KEY: 'abc123' },
      },
      target: 'npx -y server ${HOME}/x',
      secrets: ['abc123', '/home/x/x'],
    })
    expect(api).toMatchObject({
      transport: 'http',
      launch: { headers: { Authorization: 'Bearer abc123', Region: 'eu' } },
      target: 'https://api.example/mcp',
    })
    // What the UI shows never holds a secret.
    expect(api?.target).not.toContain('abc123')
    // As written too, for the trust question: `${HOME}` stays a name there.
    expect(files?.written).toMatchObject({ type: 'stdio', args: ['-y', 'server', '${HOME}/x'] })
  })

  it('expands the forms Claude Code documents', () => {
    expect(expandVariables('${A}-${B:-two}', { A: 'one' })).toEqual({ value: 'one-two' })
    expect(expandVariables('${EMPTY:-fallback}', { EMPTY: '' })).toEqual({ value: 'fallback' })
    expect(expandVariables('$HOME and ${', {})).toEqual({ value: '$HOME and ${' })
    expect(expandVariables('${MISSING}', {})).toEqual({ missing: 'MISSING' })
  })

  it('judges every server on its own: a wrong one says why, the rest still work', () => {
    const paths = workspaceWith(
      JSON.stringify({
        mcpServers: {
          good: { command: 'node' },
          'bad name!': { command: 'x' },
          two__parts: { command: 'x' },
          nothing: {},
          list: [1, 2],
          old: { type: 'sse', url: 'http://127.0.0.1/sse' },
          weird: { type: 'websocket' },
          numbers: { command: 'x', args: [1] },
          nourl: { type: 'http', url: 'not an address' },
          ftp: { type: 'http', url: 'ftp://127.0.0.1/' },
          unset: { command: 'x', env: { K: '${NOT_SET_ANYWHERE}' } },
          ['__proto__']: { command: 'x' },
        },
      }),
    )
    const config = readMcpConfiguration(paths, env)
    const byName = new Map(config.servers.map((server) => [server.name, server]))
    expect(byName.get('good')?.problem).toBeNull()
    const problems = config.servers.filter((server) => server.problem !== null)
    const text = problems.map((server) => server.problem).join('\n')
    expect(text).toContain('"bad name!" is not allowed')
    expect(text).toContain('"two__parts" is not allowed')
    expect(text).toContain('"nothing" needs "command"')
    expect(text).toContain('"list" must be an object')
    expect(text).toContain('"old" uses the SSE transport')
    expect(text).toContain('"weird" has an unknown "type"')
    expect(text).toContain('"numbers": args.0')
    expect(text).toContain('"nourl" has a "url" that is not an address')
    expect(text).toContain('"ftp" has a "url" that is not http(s)')
    expect(text).toContain('${NOT_SET_ANYWHERE}, which is not set in your environment')
    for (const server of problems) expect(server.launch).toBeNull()
  })

  it('a file that is not JSON, not an object, or not a file is a clear problem, never a crash', () => {
    expect(readMcpConfiguration(workspaceWith('{"mcpServers": {'), env).problems[0]).toMatch(
      /\.mcp\.json is not valid JSON \(line 1, column \d+/,
    )
    expect(readMcpConfiguration(workspaceWith('[]'), env).problems[0]).toContain(
      'has no "mcpServers" object',
    )
    const { dir } = tempWorkspace()
    execFileSync('mkfifo', [join(dir, '.mcp.json')])
    expect(readMcpConfiguration(new TeamPaths(dir), env).problems[0]).toContain('FIFO')
    const linked = tempWorkspace().dir
    symlinkSync('/etc/passwd', join(linked, '.mcp.json'))
    expect(readMcpConfiguration(new TeamPaths(linked), env).problems[0]).toContain('symbolic link')
    // No file at all: no server.
    expect(readMcpConfiguration(new TeamPaths(tempWorkspace().dir), env)).toEqual({
      servers: [],
      problems: [],
    })
  })

  it('adds and removes servers in .team/mcp.json; a name in .mcp.json is refused', () => {
    const paths = workspaceWith(JSON.stringify({ mcpServers: { files: { command: 'node' } } }))
    addTeamServer(paths, 'weather', { type: 'http', url: 'http://127.0.0.1:9/mcp' })
    addTeamServer(paths, 'local', { type: 'stdio', command: 'node', args: ['s.mjs'] })
    expect(() => addTeamServer(paths, 'files', { type: 'stdio', command: 'x' })).toThrow(
      /already in \.mcp\.json/,
    )
    expect(() => addTeamServer(paths, 'a b', { type: 'stdio', command: 'x' })).toThrow(
      /not a server name/,
    )
    expect(() => addTeamServer(paths, 'bad', { type: 'http', url: 'file:///etc' })).toThrow(
      /http:\/\/ or https:\/\//,
    )
    const config = readMcpConfiguration(paths, env)
    expect(config.servers.map((server) => [server.name, server.source])).toEqual([
      ['files', 'workspace'],
      ['weather', 'team'],
      ['local', 'team'],
    ])
    expect(() => removeTeamServer(paths, 'files')).toThrow(/edit that file/)
    removeTeamServer(paths, 'weather')
    expect(readMcpConfiguration(paths, env).servers.map((server) => server.name)).toEqual([
      'files',
      'local',
    ])
    // A .team/mcp.json that cannot be read is never overwritten.
    writeFileSync(paths.mcpServers, '{oops')
    expect(() => addTeamServer(paths, 'other', { type: 'stdio', command: 'x' })).toThrow(
      /not valid JSON/,
    )
  })
})
