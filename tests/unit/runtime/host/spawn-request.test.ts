import { describe, expect, it } from 'vitest'
import { BUILT_IN_PROFILES } from '../../../../src/shared/profiles'
import { LEAD, USER } from '../../../../src/shared/names'
import type { RosterFile } from '../../../../src/shared/roster'
import {
  enrollMember,
  keptNote,
  spawnAsAllowed,
  spawnSummary,
  type SpawnRequest,
} from '../../../../src/runtime/host/spawn-request'

const NOW = 1_796_212_979

function roster(...members: RosterFile['members']): RosterFile {
  return { team_name: 'default', members }
}

/** The spawn as the host would apply it, written onto `draft`. */
function enroll(draft: RosterFile, request: SpawnRequest): RosterFile {
  const { allowed } = spawnAsAllowed(
    request,
    draft.members.some((member) => member.name === request.name),
  )
  enrollMember(draft, allowed, NOW, () => 'auto')
  return draft
}

const spawn = { name: 'alice', role: 'coder', prompt: 'Write it.' } as const

describe('the engine a spawn writes to the roster', () => {
  it('a new member gets the engine asked for; builtin or none leaves the field off', () => {
    expect(
      enroll(roster(), { ...spawn, engine: 'claude-code', by: LEAD }).members[0],
    ).toMatchObject({ name: 'alice', engine: 'claude-code' })
    for (const engine of ['builtin', undefined] as const) {
      const [member] = enroll(roster(), { ...spawn, engine, by: USER }).members
      expect(member, String(engine)).not.toHaveProperty('engine')
    }
  })

  it('the lead’s re-spawn keeps the member’s engine, whatever it asks', () => {
    const onClaude = () =>
      roster({ name: 'alice', role: 'coder', status: 'idle', engine: 'claude-code' })
    expect(enroll(onClaude(), { ...spawn, by: LEAD }).members[0]?.engine).toBe('claude-code')
    expect(enroll(onClaude(), { ...spawn, engine: 'builtin', by: LEAD }).members[0]?.engine).toBe(
      'claude-code',
    )
    const builtin = roster({ name: 'alice', role: 'coder', status: 'idle' })
    expect(
      enroll(builtin, { ...spawn, engine: 'claude-code', by: LEAD }).members[0],
    ).not.toHaveProperty('engine')
  })

  it('the person’s re-spawn changes it, and keeps it when it does not say', () => {
    const draft = roster({ name: 'alice', role: 'coder', status: 'idle' })
    enroll(draft, { ...spawn, engine: 'claude-code', by: USER })
    expect(draft.members[0]?.engine).toBe('claude-code')
    enroll(draft, { ...spawn, by: USER })
    expect(draft.members[0]?.engine).toBe('claude-code')
    enroll(draft, { ...spawn, engine: 'builtin', by: USER })
    expect(draft.members[0]).not.toHaveProperty('engine')
  })

  it('says what it kept when the lead asked for another engine', () => {
    const { refused } = spawnAsAllowed({ ...spawn, engine: 'claude-code', by: LEAD }, true)
    expect(refused).toEqual(['engine claude-code'])
    const implementer = BUILT_IN_PROFILES.find((profile) => profile.name === 'implementer')
    if (implementer === undefined) throw new Error('no implementer profile')
    const permission = { profile: implementer, approval: 'auto' as const, problem: null }
    expect(keptNote('alice', refused, { permission, servers: null, engine: 'builtin' })).toBe(
      "kept alice's own profile implementer, approvals auto, MCP servers: all and engine builtin (the spawn asked for engine claude-code): only the person changes these (window: Profile… or Spawn; CLI: agent-teams profile, agent-teams spawn)",
    )
    // Without an engine asked, the note reads as it did before engines.
    expect(
      keptNote('alice', ['profile tester'], { permission, servers: [], engine: 'claude-code' }),
    ).toMatch(/^kept alice's own profile implementer, approvals auto and MCP servers: none \(/)
  })

  it('the answer names a non-default engine', () => {
    const choice = { model: null, thinking: null }
    expect(spawnSummary(spawn, choice, 'claude-code')).toBe(
      "Spawned 'alice' (role: coder, engine: Claude Code)",
    )
    expect(spawnSummary(spawn, choice, 'builtin')).toBe("Spawned 'alice' (role: coder)")
  })
})
