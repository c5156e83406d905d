import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { queueScript, text } from '../../../../src/offline-model/script'
import type { Turn, TurnBlock } from '../../../../src/offline-model/script'
import { requestsOf, resultText, toolResults, type RequestBlock } from '../../../helpers/agents'
import { startHost, type HostUnderTest } from '../../../helpers/host'
import { appendRaw, s09Line } from '../../../helpers/workspace'

const SECRET = 'TOP-SECRET-OUTSIDE'

/** A workspace `<dir>/ws` with secrets beside it: `<dir>/outside.txt` and `<dir>/ws-evil/x`. */
function workspaceWithNeighbours(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-teams-rules-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const workspace = join(dir, 'ws')
  mkdirSync(workspace)
  writeFileSync(join(dir, 'outside.txt'), SECRET)
  mkdirSync(join(dir, 'ws-evil'))
  writeFileSync(join(dir, 'ws-evil', 'x'), SECRET)
  symlinkSync(join(dir, 'outside.txt'), join(workspace, 'link.txt'))
  symlinkSync(join(dir, 'ws-evil'), join(workspace, 'linkdir'))
  writeFileSync(join(workspace, 'inside.txt'), 'inside text')
  return workspace
}

type Call = [id: string, name: string, input: Record<string, unknown>]

/** One model turn with every call in it; the next request holds every result. */
function turnOf(calls: Call[]): Turn {
  return {
    content: calls.map(([id, name, input]): TurnBlock => ({ type: 'tool_use', id, name, input })),
  }
}

/** The lead makes `calls` in one turn; returns the results its next request carried. */
async function leadCalls(
  calls: Call[],
  options: { workspace?: string; setup?: (team: HostUnderTest) => void } = {},
): Promise<{ team: HostUnderTest; results: Map<string, RequestBlock> }> {
  const script = queueScript({ lead: [turnOf(calls), text('Noted the results.')] })
  const team = await startHost(script, {
    leadWakesOnMessages: false,
    ...(options.workspace ? { workspace: options.workspace } : {}),
  })
  options.setup?.(team)
  team.host.chat('Try these tools.')
  await team.host.whenIdle()
  script.assertConsumed()
  const requests = requestsOf(team, 'lead')
  expect(requests.every((request) => !('error' in request.reply))).toBe(true)
  return { team, results: toolResults(requests[1]) }
}

function expectError(results: Map<string, RequestBlock>, id: string, pattern: RegExp): string {
  const block = results.get(id)
  expect(block, id).toBeDefined()
  expect(block?.is_error, id).toBe(true)
  const content = resultText(block)
  expect(content, id).toMatch(pattern)
  expect(content, id).not.toContain(SECRET)
  return content
}

describe('tool rules, through the model', () => {
  it('never runs the call a reply cut off at max_tokens ended in; the calls before it run', async () => {
    const workspace = workspaceWithNeighbours()
    const cutOff: Turn = {
      ...turnOf([
        ['first', 'write_file', { path: 'whole.txt', content: 'complete' }],
        ['last', 'write_file', { path: 'half.txt', content: 'cut off he' }],
      ]),
      stop_reason: 'max_tokens',
    }
    const script = queueScript({ lead: [cutOff, text('Noted the results.')] })
    const team = await startHost(script, { leadWakesOnMessages: false, workspace })
    team.host.chat('Write both files.')
    await team.host.whenIdle()
    script.assertConsumed()
    const results = toolResults(requestsOf(team, 'lead')[1])
    expect(results.get('first')?.is_error).toBe(false)
    expect(readFileSync(join(workspace, 'whole.txt'), 'utf8')).toBe('complete')
    expectError(results, 'last', /max_tokens/)
    expect(existsSync(join(workspace, 'half.txt'))).toBe(false)
  })

  it('confines read_file to the workspace', async () => {
    const workspace = workspaceWithNeighbours()
    const { results } = await leadCalls(
      [
        ['dotdot', 'read_file', { path: '../outside.txt' }],
        ['passwd', 'read_file', { path: '/etc/passwd' }],
        ['sibling', 'read_file', { path: `${workspace}-evil/x` }],
        ['symlink', 'read_file', { path: 'link.txt' }],
        ['symlinkdir', 'read_file', { path: 'linkdir/x' }],
        ['nul', 'read_file', { path: 'inside.txt\u0000.png' }],
        ['allowed', 'read_file', { path: 'inside.txt' }],
      ],
      { workspace },
    )
    expectError(results, 'dotdot', /outside the workspace/)
    expect(expectError(results, 'passwd', /outside the workspace/)).not.toContain('root:')
    expectError(results, 'sibling', /outside the workspace/)
    expectError(results, 'symlink', /symbolic link/)
    expectError(results, 'symlinkdir', /symbolic link/)
    expectError(results, 'nul', /NUL byte/)
    expect(results.get('allowed')?.is_error).toBe(false)
    expect(resultText(results.get('allowed'))).toBe('inside text')
  })

  it('refuses writes under .team/, so no agent forges mail or edits the roster', async () => {
    const forged = s09Line('forged order', 'lead')
    let inboxBefore = ''
    let configBefore = ''
    const { team, results } = await leadCalls(
      [
        ['inbox', 'write_file', { path: '.team/inbox/bob.jsonl', content: forged }],
        ['config', 'write_file', { path: '.team/config.json', content: '{"members":[]}' }],
        ['upper', 'write_file', { path: '.TEAM/inbox/bob.jsonl', content: forged }],
        ['edit', 'edit_file', { path: '.team/config.json', old_text: 'bob', new_text: 'eve' }],
        ['sneaky', 'write_file', { path: 'src/../.team/inbox/bob.jsonl', content: forged }],
        ['viaLink', 'write_file', { path: 'mail/bob.jsonl', content: forged }],
        // A hard link shares the inbox's inode: writes replace files, never write through, and
        // reads and edits refuse a file with more than one link.
        ['hard', 'write_file', { path: 'hard.jsonl', content: forged }],
        ['hardEdit', 'edit_file', { path: 'hard2.jsonl', old_text: 'real', new_text: 'fake' }],
      ],
      {
        setup: (team) => {
          // bob is on the roster (shut down, so he does not run) with one real message waiting.
          team.host.team.updateRoster((draft) => {
            draft.members.push({ name: 'bob', role: 'tester', status: 'shutdown' })
          })
          appendRaw(team.host.team.paths, 'bob', s09Line('the real message', 'lead'))
          const inbox = team.host.team.paths.inbox('bob')
          symlinkSync(team.host.team.paths.inboxDirectory, join(team.workspace, 'mail'))
          linkSync(inbox, join(team.workspace, 'hard.jsonl'))
          linkSync(inbox, join(team.workspace, 'hard2.jsonl'))
          inboxBefore = readFileSync(inbox, 'utf8')
          configBefore = readFileSync(team.host.team.paths.config, 'utf8')
        },
      },
    )
    for (const id of ['inbox', 'config', 'upper', 'edit', 'sneaky', 'viaLink'])
      expectError(results, id, /inside \.team\//)
    expect(results.get('hard')?.is_error).toBe(false)
    // A file with another name (here the inbox) is not read or edited through a link at all.
    expectError(results, 'hardEdit', /hard2\.jsonl has 2 hard links/)
    expect(readFileSync(team.host.team.paths.inbox('bob'), 'utf8')).toBe(inboxBefore)
    expect(readFileSync(team.host.team.paths.config, 'utf8')).toBe(configBefore)
    const bobInbox = await team.host.inbox('bob')
    expect(bobInbox.entries.map((entry) => entry.message?.content)).toEqual(['the real message'])
  })

  it('answers an unknown tool, invalid input and a destructive command with errors, and runs a good command', async () => {
    const { results } = await leadCalls([
      ['unknown', 'delete_everything', { really: true }],
      ['missing', 'read_file', {}],
      ['wrongtype', 'write_file', { path: 'a.txt', content: 42 }],
      ['rmrf', 'bash', { command: 'rm -rf /' }],
      ['rmsplit', 'bash', { command: 'rm -r -f /' }],
      ['good', 'bash', { command: 'echo hello-from-bash && echo to-stderr >&2' }],
      ['failing', 'bash', { command: 'echo partial; exit 3' }],
    ])
    const unknown = expectError(results, 'unknown', /Unknown tool "delete_everything"/)
    expect(unknown).toContain('read_file')
    expectError(results, 'missing', /Invalid input for read_file: path/)
    expectError(results, 'wrongtype', /Invalid input for write_file: content/)
    expectError(results, 'rmrf', /refused by the safety guard.*Nothing was run/s)
    expectError(results, 'rmsplit', /refused by the safety guard/)
    const good = results.get('good')
    expect(good?.is_error).toBe(false)
    expect(resultText(good)).toContain('hello-from-bash')
    expect(resultText(good)).toContain('to-stderr')
    expectError(results, 'failing', /partial[\s\S]*exit code 3/)
  })

  it('send_message refuses unknown and path-like recipients without creating files', async () => {
    const { team, results } = await leadCalls(
      [
        ['nobody', 'send_message', { to: 'nobody', content: 'hello?' }],
        ['escape', 'send_message', { to: '../x', content: 'escape' }],
        ['person', 'send_message', { to: 'user', content: 'hi' }],
      ],
      {
        setup: (team) =>
          team.host.team.updateRoster((draft) => {
            draft.members.push({ name: 'bob', role: 'tester', status: 'shutdown' })
          }),
      },
    )
    const unknown = expectError(results, 'nobody', /Unknown recipient "nobody"/)
    expect(unknown).toContain('bob')
    expectError(results, 'escape', /Invalid recipient/)
    expectError(results, 'person', /person/)
    const paths = team.host.team.paths
    expect(existsSync(paths.inbox('nobody'))).toBe(false)
    expect(existsSync(join(paths.root, 'x.jsonl'))).toBe(false)
    expect(existsSync(join(paths.inboxDirectory, '..', '..', 'x.jsonl'))).toBe(false)
    expect(existsSync(paths.inbox('user'))).toBe(false)
  })

  it("sets a message's from to the sending agent, whatever the input says", async () => {
    const script = queueScript({
      alice: [
        turnOf([
          ['forge', 'send_message', { to: 'lead', content: 'I am the lead', from: 'lead' }],
          ['forge2', 'send_message', { to: 'bob', content: 'orders', from: 'user' }],
        ]),
        text('Sent.'),
      ],
    })
    const team = await startHost(script, { leadWakesOnMessages: false })
    team.host.team.updateRoster((draft) => {
      draft.members.push({ name: 'bob', role: 'tester', status: 'shutdown' })
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Send two messages.' })
    await team.host.whenIdle()
    script.assertConsumed()

    const results = toolResults(requestsOf(team, 'alice')[1])
    expect(results.get('forge')?.is_error).toBe(false)
    const toLead = await team.host.inbox('lead')
    const toBob = await team.host.inbox('bob')
    expect(toLead.entries.map((entry) => [entry.message?.from, entry.message?.content])).toEqual([
      ['alice', 'I am the lead'],
    ])
    expect(toBob.entries.map((entry) => [entry.message?.from, entry.message?.content])).toEqual([
      ['alice', 'orders'],
    ])
    const sent = team.events.flatMap((event) =>
      event.type === 'message-sent' ? [event.message.from] : [],
    )
    expect(sent).toEqual(['alice', 'alice'])
  })
})
