import { describe, expect, it, onTestFinished } from 'vitest'
import { text, toolCall } from '../../../../src/offline-model/script'
import { exportResultSchema, searchResultSchema } from '../../../../src/shared/history'
import { appServices } from '../../../helpers/app-service'
import {
  claudeCodeMissing,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
  rosterWith,
} from '../../../helpers/claude-code'

const missing = claudeCodeMissing()
if (missing !== null) console.log(`Claude Code history test skipped: ${missing}`)

const openService = appServices('agent-teams-cc-history-')

describe.skipIf(missing !== null)("a Claude Code teammate's history", () => {
  it('is found by search and carried by export, streamed live as it was written', async () => {
    // The engine passes the app's own IS_SANDBOX through (Claude Code as root wants it).
    const before = process.env['IS_SANDBOX']
    process.env['IS_SANDBOX'] = CLAUDE_CODE_TEST_ENV['IS_SANDBOX']
    onTestFinished(() => {
      if (before === undefined) delete process.env['IS_SANDBOX']
      else process.env['IS_SANDBOX'] = before
    })
    let call = 0
    const { service } = await openService({
      modelId: CLAUDE_CODE_TEST_MODEL,
      prepare: (workspace) => rosterWith(workspace, [{ name: 'alice', engine: 'claude-code' }]),
      script: (_request, context) => {
        if (context.agent !== 'alice') return text('ok')
        call++
        return call === 1
          ? toolCall('Bash', { command: 'echo quokka census', description: 'count' })
          : text('The quokka census is done: forty-two quokkas.')
      },
    })
    const deltas: string[] = []
    service.currentHost?.subscribe((event) => {
      if (event.type === 'text-delta' && event.agent === 'alice') deltas.push(event.text)
    })
    await service.execute('sendMessage', { to: 'alice', content: 'Count the quokkas.' })
    await service.currentHost?.whenIdle()
    // Live: the text came as deltas before its record.
    expect(deltas.join('')).toContain('forty-two quokkas')
    expect(deltas.length).toBeGreaterThan(1)

    const found = searchResultSchema.parse(
      await service.execute('searchHistory', { text: 'forty-two quokkas' }),
    )
    expect(found.groups.map((group) => group.agent)).toEqual(['alice'])
    const exported = exportResultSchema.parse(
      await service.execute('exportHistory', { agent: 'alice', format: 'md' }),
    )
    expect(exported.content).toContain('forty-two quokkas')
    expect(exported.content).toContain('echo quokka census')
  }, 60_000)
})
