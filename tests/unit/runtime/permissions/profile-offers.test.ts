import { describe, expect, it } from 'vitest'
import type { NeedsYou } from '../../../../src/runtime/needs-you/queue'
import { createToolPolicy } from '../../../../src/runtime/permissions/tool-policy'
import { BUILT_IN_PROFILES, profileSchema, type Profile } from '../../../../src/shared/profiles'

/** What `profile` offers (offering never asks the queue: only a call may wait for the person). */
function offers(profile: Profile): (tool: string) => boolean {
  const policy = createToolPolicy({
    agent: 'rita',
    workspace: '/nowhere',
    permission: () => ({ profile, approval: 'auto', problem: null }),
    queue: {} as NeedsYou,
    ownFolder: () => null,
  })
  return (tool) => policy.offered(tool)
}

const builtIn = (name: string): Profile => {
  const found = BUILT_IN_PROFILES.find((profile) => profile.name === name)
  if (found === undefined) throw new Error(`no built-in profile ${name}`)
  return found
}

describe('what a profile offers beside its own tools', () => {
  it("MCP servers' tools: every profile but the read-only reviewer", () => {
    expect(offers(builtIn('reviewer'))('mcp__notes__echo')).toBe(false)
    for (const name of ['tester', 'implementer', 'lead'])
      expect(offers(builtIn(name))('mcp__notes__echo')).toBe(true)
  })

  it('the task board and the protocols, to every profile', () => {
    const reviewer = offers(builtIn('reviewer'))
    for (const tool of ['list_tasks', 'claim_task', 'complete_task', 'update_task', 'submit_plan'])
      expect(reviewer(tool)).toBe(true)
    expect(reviewer('bash')).toBe(false)
  })

  it('a custom profile written before MCP gets the servers; one may turn them off', () => {
    const old = profileSchema.parse({ name: 'docs', tools: ['read_file'], approval: 'auto' })
    expect(old.mcp).toBe(true)
    const closed = profileSchema.parse({ ...old, mcp: false })
    expect(offers(closed)('mcp__notes__echo')).toBe(false)
    expect(profileSchema.safeParse({ ...old, mcp: 'yes' }).success).toBe(false)
  })
})
