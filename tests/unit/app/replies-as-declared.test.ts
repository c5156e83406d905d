import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { commands, type CommandName } from '../../../src/shared/contract'
import { agentScript } from '../../helpers/agents'
import { appServices } from '../../helpers/app-service'

/**
 * The app service no longer parses its own replies (the page parses each once, where it
 * arrives): so a reply must already be what the contract declares, field for field. A field a
 * parse would have dropped would now cross to the page; one a parse would have added, the page
 * would add. Either shows here.
 */
describe('the app service replies as the contract declares', () => {
  const openService = appServices('agent-teams-replies-')

  it('every reply of a working team equals its own parse, with nothing extra', async () => {
    const { workspace, service } = await openService({
      script: agentScript((agent) => (agent === 'alice' ? text('Done.') : undefined)),
    })
    await service.execute('spawn', { name: 'alice', role: 'coder', prompt: 'Go.' })
    await service.currentHost?.whenIdle()
    await service.execute('sendMessage', { to: 'alice', content: 'A note.' })
    await service.execute('createTask', { subject: 'Write the parser' })

    const calls: [CommandName, unknown][] = [
      ['getInfo', {}],
      ['getSettings', {}],
      ['getRecentWorkspaces', {}],
      ['getSnapshot', {}],
      ['getTranscript', { name: 'alice' }],
      ['getInbox', { name: 'alice' }],
      ['getInstructions', { name: 'alice' }],
      ['getTeamNote', {}],
      ['listTemplates', {}],
      ['getSandbox', {}],
      ['listTasks', {}],
      ['getTrust', {}],
      ['getProfiles', {}],
      ['getEngines', {}],
      ['getWorktrees', {}],
      ['listFolders', { path: workspace }],
      ['searchHistory', { text: 'note' }],
      ['exportHistory', { format: 'jsonl' }],
      ['resumeAll', {}],
    ]
    for (const [name, params] of calls) {
      const reply = await service.execute(name, params)
      expect(reply, name).toStrictEqual(commands[name].result.parse(reply))
    }
  })
})
