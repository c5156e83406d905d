import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Roster } from '../../../src/runtime/roster/roster'
import type { TeamPaths } from '../../../src/runtime/team/paths'
import { TeamError } from '../../../src/shared/errors'
import { tempWorkspace } from '../../helpers/workspace'

function openError(paths: TeamPaths): TeamError {
  try {
    Roster.open(paths)
  } catch (error) {
    expect(error).toBeInstanceOf(TeamError)
    return error as TeamError
  }
  throw new Error('expected Roster.open to throw')
}

/** A workspace whose config.json is `text`. */
function withConfig(text: string): TeamPaths {
  const { paths } = tempWorkspace()
  Roster.open(paths)
  writeFileSync(paths.config, text)
  return paths
}

// Line 3 lacks the comma after "coder": JSON.parse stops at "status", column 49.
const MISSING_COMMA = `{
  "team_name": "acme",
  "members": [{"name": "alice", "role": "coder" "status": "idle"}]
}
`

describe('a config.json that is not valid JSON', () => {
  it("is a 'roster-invalid' error naming the file, the line and the column", () => {
    const paths = withConfig(MISSING_COMMA)
    expect(MISSING_COMMA.split('\n')[2]?.indexOf('"status"')).toBe(48)
    const error = openError(paths)
    expect(error.code).toBe('roster-invalid')
    expect(error.message).toContain(`${paths.config}:3:49: not valid JSON`)
    expect(error.message).toMatch(/Expected ',' or '}' after property value/)
    expect(error.message).toMatch(
      /Fix the file, or reset the roster \(the bad file is kept beside it\)/,
    )
    expect(error.details).toEqual({ file: paths.config, line: 3, column: 49 })
  })

  it.each([
    ['an empty file (a write that was cut short)', '', 1, 1],
    ['a truncated file', '{\n  "team_name": "acme",\n  "mem', 3, 7],
    ['a trailing comma', '{\n  "team_name": "acme",\n  "members": [],\n}', 4, 1],
  ])('%s is located too', (_what, text, line, column) => {
    const error = openError(withConfig(text))
    expect(error.code).toBe('roster-invalid')
    expect(error.message).toMatch(new RegExp(`config\\.json:${line}:${column}: not valid JSON`))
  })

  it('is never overwritten: not by open, and not by reading it', () => {
    const paths = withConfig(MISSING_COMMA)
    expect(() => Roster.open(paths)).toThrow(/not valid JSON/)
    expect(() => Roster.open(paths)).toThrow(/not valid JSON/)
    expect(() => Roster.read(paths)).toThrow(/not valid JSON/)
    expect(readFileSync(paths.config, 'utf8')).toBe(MISSING_COMMA)
    expect(readdirSync(paths.root)).toEqual(['config.json'])
  })

  it('is never overwritten by an update of a roster opened before it was broken', () => {
    const { paths } = tempWorkspace()
    const roster = Roster.open(paths)
    roster.update(
      (draft) => void draft.members.push({ name: 'alice', role: 'coder', status: 'idle' }),
    )
    // The person breaks the file in an editor while the app runs.
    writeFileSync(paths.config, MISSING_COMMA)
    expect(() => roster.setStatus('alice', 'working')).toThrow(
      expect.objectContaining({ code: 'roster-invalid' }),
    )
    expect(readFileSync(paths.config, 'utf8')).toBe(MISSING_COMMA)
  })
})

describe('a config.json that does not fit the schema', () => {
  const members = (...lines: string[]) =>
    `{\n  "team_name": "acme",\n  "members": [\n${lines.map((line) => `    ${line}`).join(',\n')}\n  ]\n}\n`

  it.each([
    [
      'an unknown status',
      members(
        '{"name": "alice", "role": "coder", "status": "idle"}',
        '{"name": "bob", "role": "tester", "status": "sleeping"}',
      ),
      /:5:\d+: members\[1\]\.status Invalid option/,
    ],
    [
      'a bad member name',
      members('{"name": "Alice", "role": "coder", "status": "idle"}'),
      /:4:\d+: members\[0\]\.name must be an agent name/,
    ],
    [
      'a name escaping the folder',
      members('{"name": "../x", "role": "coder", "status": "idle"}'),
      /:4:\d+: members\[0\]\.name must be an agent name/,
    ],
    [
      'a reserved member name',
      members('{"name": "lead", "role": "boss", "status": "idle"}'),
      /:4:\d+: members\[0\]\.name is reserved \(lead, user, reactions\)/,
    ],
    [
      'a duplicate name',
      members(
        '{"name": "alice", "role": "coder", "status": "idle"}',
        '{"name": "alice", "role": "again", "status": "idle"}',
      ),
      /:5:\d+: members\[1\]\.name "alice" appears twice/,
    ],
    [
      'a member without a role',
      members('{"name": "alice", "status": "idle"}'),
      /:4:\d+: members\[0\]\.role /,
    ],
    [
      'members that are not a list',
      '{\n  "team_name": "acme",\n  "members": {}\n}',
      /:3:\d+: members /,
    ],
    ['no team name', '{\n  "members": []\n}', /config\.json:\d+:\d+: team_name /],
  ])(
    "with %s is a 'roster-invalid' error naming the field and its line",
    (_what, text, message) => {
      const paths = withConfig(text)
      const error = openError(paths)
      expect(error.code).toBe('roster-invalid')
      expect(error.message).toContain(paths.config)
      expect(error.message).toMatch(message)
      expect(readFileSync(paths.config, 'utf8')).toBe(text)
    },
  )

  it('points at the right member even when an earlier member has a nested extra field', () => {
    const text = members(
      '{"origin": {"id": "x"}, "name": "alice", "role": "coder", "status": "idle"}',
      '{"name": "bob", "role": "tester", "status": "sleeping"}',
    )
    const error = openError(withConfig(text))
    expect(error.message).toMatch(/members\[1\]\.status/)
    expect(error.details).toMatchObject({ line: 5 })
  })

  it('with a newer format version says to update the app', () => {
    const error = openError(withConfig('{"team_name": "acme", "members": [], "format_version": 2}'))
    expect(error.code).toBe('roster-invalid')
    expect(error.message).toMatch(
      /format_version 2 is newer than this app reads \(1\); update the app/,
    )
  })
})

describe('Roster.reset', () => {
  it('keeps the bad file beside it under a new name and starts an empty roster', () => {
    const paths = withConfig(MISSING_COMMA)
    const clock = { now: () => Date.UTC(2030, 4, 6, 7, 8, 9, 10) }
    const { keptAs } = Roster.reset(paths, clock)
    expect(keptAs).toBe(join(paths.root, 'config.json.invalid-2030-05-06T07-08-09-010Z'))
    expect(readFileSync(keptAs!, 'utf8')).toBe(MISSING_COMMA)
    expect(readdirSync(paths.root).sort()).toEqual([
      'config.json',
      'config.json.invalid-2030-05-06T07-08-09-010Z',
    ])
    const roster = Roster.open(paths)
    expect(roster.members).toEqual([])
    expect(roster.snapshot.team_name).toBe('default')
  })

  it('without a config.json just starts one', () => {
    const { paths } = tempWorkspace()
    expect(Roster.reset(paths)).toEqual({ keptAs: null })
    expect(Roster.open(paths).members).toEqual([])
  })

  it('twice in the same millisecond keeps both bad files', () => {
    const paths = withConfig('first bad file')
    const clock = { now: () => Date.UTC(2030, 0, 1) }
    const first = Roster.reset(paths, clock).keptAs
    writeFileSync(paths.config, 'second bad file')
    const second = Roster.reset(paths, clock).keptAs
    expect(second).not.toBe(first)
    expect([readFileSync(first!, 'utf8'), readFileSync(second!, 'utf8')]).toEqual([
      'first bad file',
      'second bad file',
    ])
  })
})
