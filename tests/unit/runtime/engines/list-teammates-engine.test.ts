import { describe, expect, it } from 'vitest'
import { text, toolCall } from '../../../../src/offline-model/script'
import { rosterWith } from '../../../helpers/claude-code'
import { startHost } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

describe("the lead's list_teammates", () => {
  it("names a teammate's engine when it is not the built-in one", async () => {
    const { dir } = tempWorkspace()
    rosterWith(dir, [
      { name: 'alice', engine: 'claude-code' },
      { name: 'bob', role: 'tester' },
    ])
    const target = await startHost(
      (_request, context) =>
        context.agentCall === 1 ? toolCall('list_teammates', {}) : text('ok'),
      { workspace: dir },
    )
    target.host.chat('Who is on the team?')
    await target.host.whenIdle()
    const [listing] = target.records('lead', 'tool-result')
    expect(listing?.content).toContain('alice (engineer, Claude Code): idle')
    expect(listing?.content).toContain('bob (tester): idle')
  })
})
