import { describe, expect, it } from 'vitest'
import { TeamError } from '../../../src/shared/errors'
import {
  LEAD,
  RESERVED_NAMES,
  USER,
  assertSpawnableName,
  assertValidName,
  isValidName,
  nameProblem,
} from '../../../src/shared/names'

function thrown(action: () => void): TeamError {
  try {
    action()
  } catch (error) {
    expect(error).toBeInstanceOf(TeamError)
    return error as TeamError
  }
  throw new Error('expected a TeamError, but nothing was thrown')
}

describe('agent names', () => {
  it.each(['a', 'alice', 'bob-2', 'x_y', 'a1', 'a'.repeat(32), 'lead', 'user', 'z-_-9'])(
    'accepts %j',
    (name) => {
      expect(isValidName(name)).toBe(true)
      expect(nameProblem(name)).toBeNull()
      expect(() => assertValidName(name)).not.toThrow()
    },
  )

  it.each([
    ['', /empty/],
    ['a'.repeat(33), /longer than 32/],
    ['Bob', /start with a lowercase letter/],
    ['aliCe', /only lowercase letters, digits/],
    ['1abc', /start with a lowercase letter/],
    ['-abc', /start with a lowercase letter/],
    ['_abc', /start with a lowercase letter/],
    ['../x', /start with a lowercase letter/],
    ['a/../x', /only lowercase letters, digits/],
    ['has space', /only lowercase letters, digits/],
    [' alice', /start with a lowercase letter/],
    ['alice ', /only lowercase letters, digits/],
    ['a.b', /only lowercase letters, digits/],
    ['ålice', /start with a lowercase letter/],
    ['alice\n', /only lowercase letters, digits/],
  ])('refuses %j (%s)', (name, reason) => {
    expect(isValidName(name)).toBe(false)
    expect(nameProblem(name)).toMatch(reason)
    const error = thrown(() => assertValidName(name, 'recipient'))
    expect(error.code).toBe('invalid-name')
    expect(error.message).toMatch(/Invalid recipient/)
    expect(error.message).toMatch(reason)
    expect(error.message).toMatch(/1-32 characters/)
  })

  it('refuses values that are not strings', () => {
    for (const value of [undefined, null, 42, ['alice'], { name: 'alice' }])
      expect(isValidName(value)).toBe(false)
  })

  it('says that 32 characters is the limit, and truncates a very long name in the reason', () => {
    const long = 'a'.repeat(100)
    const problem = nameProblem(long) ?? ''
    expect(problem).toMatch(/longer than 32 characters/)
    expect(problem).not.toContain(long)
    expect(problem).toContain('…')
  })
})

describe('reserved names', () => {
  it('reserves exactly lead, user and reactions (the app reactions sender)', () => {
    expect(LEAD).toBe('lead')
    expect(USER).toBe('user')
    expect([...RESERVED_NAMES].sort()).toEqual(['lead', 'reactions', 'user'])
  })

  it.each(['lead', 'user', 'reactions'])('%s can never be spawned', (name) => {
    const error = thrown(() => assertSpawnableName(name))
    expect(error.code).toBe('reserved-name')
    expect(error.message).toMatch(new RegExp(`"${name}" is reserved`))
    expect(error.message).toMatch(/cannot be spawned/)
  })

  it('an invalid name is refused as invalid before it is checked for being reserved', () => {
    expect(thrown(() => assertSpawnableName('Lead')).code).toBe('invalid-name')
    expect(thrown(() => assertSpawnableName('../lead')).code).toBe('invalid-name')
  })

  it.each(['alice', 'leader', 'users', 'lead2'])('%s can be spawned', (name) => {
    expect(() => assertSpawnableName(name)).not.toThrow()
  })
})
