import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type ModelRequest } from '../../../../src/offline-model/script'
import { gitIn, gitWorkspace, worktreeFolder } from '../../../helpers/git'
import { startHost } from '../../../helpers/host'
import {
  claudeCodeMissing,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
} from '../../../helpers/claude-code'

const missing = claudeCodeMissing()
if (missing !== null) console.log(`Claude Code worktree test skipped: ${missing}`)

/** The folder Claude Code says it works in (its environment block in the first request). */
function workingFolder(request: ModelRequest): string {
  const match = /Primary working directory: (\S+)/.exec(JSON.stringify(request.messages))
  return (match?.[1] ?? '').replace(/\\n$/, '')
}

describe.skipIf(missing !== null)('a Claude Code teammate in its own worktree', () => {
  it('claims a task, edits and commits in its worktree on team/<name>, and cannot write the workspace', async () => {
    const workspace = gitWorkspace()
    let folder = ''
    let call = 0
    const target = await startHost(
      (request, context) => {
        if (context.agent !== 'alice') return text('ok')
        call++
        if (call === 1) folder = workingFolder(request)
        switch (call) {
          case 1:
            return toolCall('mcp__team__claim_task', { id: '1' })
          case 2:
            return toolCall('Write', { file_path: join(folder, 'notes.md'), content: '# Notes\n' })
          case 3:
            return toolCall('Bash', {
              command:
                'git add notes.md && git commit -qm "Add notes" && git branch --show-current',
              description: 'commit',
            })
          case 4:
            return toolCall('Write', {
              file_path: join(workspace, 'README.md'),
              content: 'defaced',
            })
          case 5:
            return toolCall('mcp__team__send_message', { to: 'lead', content: 'Notes committed.' })
          default:
            return text('Done.')
        }
      },
      {
        workspace,
        endpoint: { model: CLAUDE_CODE_TEST_MODEL },
        claudeCodeEnvironment: CLAUDE_CODE_TEST_ENV,
      },
    )
    target.host.tasks.create({ subject: 'Write the notes', by: 'user' })
    const summary = await target.host.spawn({
      name: 'alice',
      role: 'writer',
      prompt: 'Take task 1.',
      engine: 'claude-code',
    })
    expect(summary).toContain('team/alice')
    await target.host.whenIdle()

    expect(folder).toBe(worktreeFolder(workspace, 'alice'))
    expect(readFileSync(join(folder, 'notes.md'), 'utf8')).toBe('# Notes\n')
    expect(gitIn(workspace, 'log', '-1', '--format=%s', 'team/alice')).toBe('Add notes')
    expect(gitIn(workspace, 'log', '-1', '--format=%s', 'main')).not.toBe('Add notes')
    expect(existsSync(join(workspace, 'notes.md'))).toBe(false)
    expect(readFileSync(join(workspace, 'README.md'), 'utf8')).not.toBe('defaced')
    const results = target.records('alice', 'tool-result')
    expect(results[2]?.content).toContain('team/alice')
    expect(results[3]?.is_error).toBe(true)
    expect(target.host.tasks.view().tasks[0]).toMatchObject({
      owner: 'alice',
      status: 'in_progress',
    })
    const leadMail = target.records('lead', 'inbox').flatMap((record) => record.messages)
    expect(leadMail.map((message) => [message.from, message.content])).toContainEqual([
      'alice',
      'Notes committed.',
    ])
  }, 90_000)
})
