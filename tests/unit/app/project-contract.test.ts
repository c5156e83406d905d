import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { agentScript, rosterOnDisk } from '../../helpers/agents'
import { appServices } from '../../helpers/app-service'

/** The contract's instruction, note and template commands, through AppService.execute. */
describe('the contract: instructions, team note and templates', () => {
  const openService = appServices('agent-teams-project-contract-')
  const open = () => openService({ script: agentScript(() => text('Done.')) })

  it('shows the files an agent is given, and sets the team note', async () => {
    const { workspace, service } = await open()
    writeFileSync(join(workspace, 'AGENTS.md'), 'Use tabs.')
    await service.execute('setTeamNote', { text: 'Ship small.' })
    expect(await service.execute('getTeamNote', {})).toMatchObject({ text: 'Ship small.' })
    expect(await service.execute('getInstructions', { name: 'lead' })).toEqual({
      files: [
        expect.objectContaining({ path: 'AGENTS.md', bytes: 9, shownChars: 9 }),
        expect.objectContaining({ path: '.team/note.json', kind: 'team-note', shownChars: 11 }),
      ],
    })
    await expect(service.execute('getInstructions', { name: 'nobody' })).rejects.toThrow(/nobody/)
    await expect(service.execute('setTeamNote', { text: 'x'.repeat(64_001) })).rejects.toThrow(
      /Invalid parameters for setTeamNote: text/,
    )
  })

  it('applies, saves, edits, exports, imports and deletes templates', async () => {
    const { workspace, service } = await open()
    const listed = (await service.execute('listTemplates', {})) as {
      templates: { template: { name: string }; builtin: boolean }[]
    }
    expect(listed.templates.map((entry) => entry.template.name)).toEqual([
      'coder-tester',
      'frontend-backend-reviewer',
      'researcher-writer',
    ])
    const applied = (await service.execute('applyTemplate', { name: 'coder-tester' })) as {
      summary: string
    }
    expect(applied.summary).toContain("Spawned 'alice' (role: coder)")
    await service.currentHost?.whenIdle()
    expect(rosterOnDisk(workspace).map((member) => member.name)).toEqual(['alice', 'bob'])

    const saved = (await service.execute('saveTemplate', { name: 'ours' })) as {
      template: { members: { name: string; prompt: string }[] }
    }
    expect(saved.template.members.map((member) => member.name)).toEqual(['alice', 'bob'])
    const exported = (await service.execute('exportTemplate', { name: 'ours' })) as {
      fileName: string
      json: string
    }
    expect(exported.fileName).toBe('ours.agent-teams-template.json')
    const edited = JSON.parse(exported.json) as Record<string, unknown>
    await service.execute('editTemplate', {
      previousName: 'ours',
      template: { ...edited, name: 'renamed', description: 'edited' },
    })
    const names = (
      (await service.execute('listTemplates', {})) as {
        templates: { template: { name: string } }[]
      }
    ).templates.map((entry) => entry.template.name)
    expect(names).toContain('renamed')
    expect(names).not.toContain('ours')
    await expect(service.execute('importTemplate', { json: '{"v":1}' })).rejects.toThrow(
      /^The file is not a valid team template: format must be "agent-teams-template"/,
    )
    expect(await service.execute('importTemplate', { json: exported.json })).toMatchObject({
      template: { name: 'ours' },
    })
    await service.execute('deleteTemplate', { name: 'ours' })
    await expect(service.execute('deleteTemplate', { name: 'coder-tester' })).rejects.toThrow(
      /built-in template: it cannot be deleted/,
    )
  })
})
