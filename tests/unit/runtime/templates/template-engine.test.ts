import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import { Roster } from '../../../../src/runtime/roster/roster'
import { applyTemplate, templateFromTeam } from '../../../../src/runtime/templates/team-template'
import { parseTemplateText, TemplateStore } from '../../../../src/runtime/templates/template-store'
import type { EngineAvailability } from '../../../../src/shared/engine'
import { TeamError } from '../../../../src/shared/errors'
import type { TeamTemplate } from '../../../../src/shared/templates'
import { agentScript, rosterOnDisk } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

const PROBLEM = 'Claude Code is not installed (a test says so).'
const notInstalled = (): EngineAvailability[] => [
  { engine: 'builtin', available: true, problem: null, needs: 'A key.', costs: 'Prices.' },
  { engine: 'claude-code', available: false, problem: PROBLEM, needs: 'Claude.', costs: 'More.' },
]

function template(members: TeamTemplate['members']): TeamTemplate {
  return { format: 'agent-teams-template', v: 1, name: 'duo', description: '', members }
}

describe('a template keeps each member’s engine', () => {
  it('saving records a non-default engine, and leaves builtin out', () => {
    const { paths } = tempWorkspace()
    Roster.open(paths).update((draft) => {
      draft.members.push(
        { name: 'alice', role: 'coder', status: 'idle', engine: 'claude-code' },
        { name: 'bob', role: 'tester', status: 'idle' },
      )
    })
    const saved = templateFromTeam(paths, { name: 'duo', nowSeconds: 1 })
    expect(saved.members.map((member) => [member.name, member.engine])).toEqual([
      ['alice', 'claude-code'],
      ['bob', undefined],
    ])
    expect(saved.members[1]).not.toHaveProperty('engine')
    // It survives the file: saved, read back, exported.
    const store = TemplateStore.inConfigFolder(join(tempWorkspace().dir, 'agent-teams'))
    store.save(saved)
    expect(store.get('duo').template.members[0]?.engine).toBe('claude-code')
    expect(JSON.parse(store.exportText('duo')).members[0].engine).toBe('claude-code')
  })

  it('refuses an engine that does not exist, naming the member', () => {
    const file = JSON.stringify(
      template([{ name: 'alice', role: 'coder', prompt: 'Go.', engine: 'codex' as never }]),
    )
    expect(() => parseTemplateText(file, 'The file')).toThrow(/members\.0\.engine/)
  })

  it('applying spawns with the member’s engine; one that cannot run here changes nothing', async () => {
    const team = await startHost(
      agentScript(() => text('Ok.')),
      { engineAvailability: notInstalled },
    )
    const members: TeamTemplate['members'] = [
      { name: 'bob', role: 'tester', prompt: 'Test.' },
      { name: 'alice', role: 'coder', prompt: 'Go.', engine: 'claude-code' },
    ]
    const error = await applyTemplate(team.host, {
      ...template(members),
      lead: { model: 'claude-lead' },
    }).catch((thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(TeamError)
    expect(error).toMatchObject({ code: 'engine-unavailable', message: PROBLEM })
    // Refused whole: not bob before it, nor the lead's model.
    expect(rosterOnDisk(team.workspace)).toEqual([])
    expect(team.host.modelChoice('lead').model).toBeNull()

    const summary = await applyTemplate(
      team.host,
      template([{ name: 'bob', role: 'tester', prompt: 'Test.', engine: 'builtin' }]),
    )
    await team.host.whenIdle()
    expect(summary).toContain("Spawned 'bob' (role: tester)")
    expect(rosterOnDisk(team.workspace)[0]).not.toHaveProperty('engine')
  })
})
