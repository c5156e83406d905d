import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { startHost } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'
import {
  claudeCodeMissing,
  claudeCodeProcessesIn,
  CLAUDE_CODE_TEST_ENV,
  CLAUDE_CODE_TEST_MODEL,
  lastUserText,
  offeredTools,
  rosterWith,
} from '../../../helpers/claude-code'

const missing = claudeCodeMissing()
if (missing !== null) console.log(`Claude Code engine tests skipped: ${missing}`)

describe.skipIf(missing !== null)(
  'a Claude Code teammate (the real SDK and binary, offline)',
  () => {
    it('takes mail, works in its folder, answers through the mailbox, and goes idle without a process', async () => {
      const { dir } = tempWorkspace()
      rosterWith(dir, [{ name: 'alice', engine: 'claude-code', model: 'claude-haiku-4-5' }])
      const seen: string[][] = []
      const alice: Reply[] = [
        toolCall('Write', { file_path: join(dir, 'hello.txt'), content: 'hello\n' }),
        toolCall('mcp__team__send_message', { to: 'lead', content: 'hello.txt is written' }),
        text('Done.'),
      ]
      const target = await startHost(
        (request, context) => {
          if (context.agent === 'alice') {
            seen.push(offeredTools(request))
            return alice.shift() ?? text('nothing more')
          }
          return text('Thanks.')
        },
        {
          workspace: dir,
          endpoint: { model: CLAUDE_CODE_TEST_MODEL },
          claudeCodeEnvironment: CLAUDE_CODE_TEST_ENV,
        },
      )
      target.host.send({ to: 'alice', content: 'Write hello.txt, then tell the lead.' })
      await target.host.whenIdle()

      expect(readFileSync(join(dir, 'hello.txt'), 'utf8')).toBe('hello\n')
      // Its own model (the roster's), not the team's.
      expect(target.server.requests.find((request) => request.agent === 'alice')?.body.model).toBe(
        'claude-haiku-4-5',
      )
      // Its team tools are ours; Claude Code's own coordination tools are not offered.
      expect(seen[0]).toEqual(
        expect.arrayContaining([
          'mcp__team__send_message',
          'mcp__team__claim_task',
          'Bash',
          'Write',
        ]),
      )
      for (const tool of [
        'Task',
        'Agent',
        'SendMessage',
        'ListAgents',
        'TaskCreate',
        'CronCreate',
        'ScheduleWakeup',
        'Workflow',
        'EnterWorktree',
      ])
        expect(seen[0]).not.toContain(tool)
      // The lead got alice's message through the mailbox, from alice (set by the runtime).
      const leadInbox = target.records('lead', 'inbox').flatMap((record) => record.messages)
      expect(leadInbox.map((message) => [message.from, message.content])).toContainEqual([
        'alice',
        'hello.txt is written',
      ])
      // Its transcript is in our format: the mail, the turns with their tool calls, the results.
      const records = target.host.transcript('alice').records
      expect(records.filter((record) => record.kind === 'inbox')).toHaveLength(1)
      const calls = records.flatMap((record) =>
        record.kind === 'assistant'
          ? record.content.flatMap((block) =>
              block.type === 'tool_use' && typeof block['name'] === 'string' ? [block['name']] : [],
            )
          : [],
      )
      expect(calls).toEqual(['Write', 'mcp__team__send_message'])
      expect(records.filter((record) => record.kind === 'tool-result')).toHaveLength(2)
      // Usage from its result message, priced by our table: some tokens were counted.
      const usage = target.host.roster().members.find((member) => member.name === 'alice')
      expect(usage).toBeDefined()
      const assistant = target.records('alice', 'assistant')
      expect(
        assistant.some(
          (record) =>
            record.usage.input_tokens + (record.usage.cache_creation_input_tokens ?? 0) > 0,
        ),
      ).toBe(true)
      // Claude Code's files are in the app's data folder, not ~/.claude.
      expect(existsSync(join(dir, '.claude'))).toBe(false)
      // Idle: no process held.
      expect(claudeCodeProcessesIn(dir)).toEqual([])
      expect(target.host.roster().members.find((member) => member.name === 'alice')?.status).toBe(
        'idle',
      )
      const prompt = lastUserText(target.server.requests.find((r) => r.agent === 'alice')!.body)
      expect(prompt).toContain('Write hello.txt, then tell the lead.')
    }, 60_000)
  },
)
