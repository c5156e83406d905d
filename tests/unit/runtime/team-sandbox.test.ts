import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { readTeamSandbox, writeTeamSandbox } from '../../../src/runtime/sandbox/team-hosts'
import { tempWorkspace } from '../../helpers/workspace'

describe("the team's sandbox settings (.team/sandbox.json)", () => {
  it('allow no host when the file is missing (a team from before the sandbox)', () => {
    const { paths } = tempWorkspace()
    expect(readTeamSandbox(paths)).toEqual({ allowedHosts: [], problem: null })
  })

  it('round-trip the allow-list, lower-cased and without duplicates', () => {
    const { paths } = tempWorkspace()
    writeTeamSandbox(paths, [
      'Registry.npmjs.org',
      '*.example.com',
      '127.0.0.1:8080',
      'registry.npmjs.org',
    ])
    expect(readTeamSandbox(paths)).toEqual({
      allowedHosts: ['registry.npmjs.org', '*.example.com', '127.0.0.1:8080'],
      problem: null,
    })
    expect(JSON.parse(readFileSync(paths.sandboxSettings, 'utf8'))).toMatchObject({ version: 1 })
  })

  it.each([
    ['http://evil.com', /"http:\/\/evil.com": a host is a name/],
    ['*', /"\*": a host is a name/],
    ['a b', /"a b": a host is a name/],
    ['host:70000', /"host:70000": a port is at most 65535/],
    ['', /"": a host is a name/],
  ])('refuse %j, keeping what was saved', (host, message) => {
    const { paths } = tempWorkspace()
    writeTeamSandbox(paths, ['pypi.org'])
    expect(() => writeTeamSandbox(paths, ['crates.io', host])).toThrow(message)
    expect(readTeamSandbox(paths).allowedHosts).toEqual(['pypi.org'])
  })

  it.each([
    ['not JSON', '{"version": 1, "allowedHosts": [', /is not valid JSON/],
    ['a wrong version', '{"version": 2, "allowedHosts": []}', /is not valid \(version/],
    ['a bad host', '{"version": 1, "allowedHosts": ["evil.com; rm -rf /"]}', /allowedHosts\.0/],
    ['not an object', '[]', /is not valid/],
  ])('allow no host and say why when the file holds %s', (_kind, content, problem) => {
    const { paths } = tempWorkspace()
    mkdirSync(paths.root, { recursive: true })
    writeFileSync(paths.sandboxSettings, content)
    const settings = readTeamSandbox(paths)
    expect(settings.allowedHosts).toEqual([])
    expect(settings.problem).toMatch(problem)
    expect(settings.problem).toMatch(/no host is allowed until it is fixed/)
    expect(readFileSync(paths.sandboxSettings, 'utf8')).toBe(content)
  })

  it('allow no host when the file is a folder', () => {
    const { paths } = tempWorkspace()
    mkdirSync(paths.sandboxSettings, { recursive: true })
    expect(readTeamSandbox(paths)).toEqual({
      allowedHosts: [],
      problem: expect.stringMatching(/is a folder|folder/),
    })
  })
})
