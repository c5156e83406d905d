import { createHash } from 'node:crypto'
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  existsSync,
  readdirSync,
  readFileSync,
} from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { queueScript } from '../../../src/offline-model/script'
import { TeamPaths } from '../../../src/runtime/team/paths'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { startHost, type HostUnderTest } from '../../helpers/host'
import { tempWorkspace } from '../../helpers/workspace'

/**
 * The golden `.team/` of format version 1 (tests/fixtures/team-v1, made once by
 * tests/helpers/team-v1-generator.ts with the runtime of the time): opened by today's runtime
 * from a copy, it must read the same team. A change of the format that breaks an existing
 * workspace fails here before it reaches a user. The files under refused/ must be refused,
 * each with its reason, and nothing lost.
 */

const CORPUS = join(import.meta.dirname, '../../fixtures/team-v1')
const REFUSED = join(CORPUS, 'refused')

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)))
    .sort()
}

function digest(folder: string): string {
  const hash = createHash('sha256')
  for (const file of filesUnder(folder)) hash.update(file).update(readFileSync(join(folder, file)))
  return hash.digest('hex')
}

/** A workspace holding a copy of the corpus's team as its `.team/`. */
function copyOfCorpus(): { workspace: string; paths: TeamPaths } {
  const { dir, paths } = tempWorkspace('agent-teams-team-v1-')
  cpSync(join(CORPUS, 'team'), paths.root, { recursive: true })
  return { workspace: dir, paths }
}

/**
 * The team opened as a cloned repository's is: not trusted, so nothing it grants applies and
 * no agent wakes by itself. The script answers no call: any model call fails the test.
 */
async function open(workspace: string): Promise<HostUnderTest> {
  return startHost(queueScript({}), { workspace, trust: { store: null } })
}

const kinds = (records: readonly TranscriptRecord[]) => records.map((record) => record.kind)

let corpusDigest: string
beforeAll(() => {
  corpusDigest = digest(CORPUS)
})
afterAll(() => {
  // Every test worked on a copy: the corpus itself is exactly as committed.
  expect(digest(CORPUS)).toBe(corpusDigest)
})

describe('the golden .team/ of format version 1', () => {
  it('reads the roster: members, statuses, model choices, modes and budgets', async () => {
    const { workspace } = copyOfCorpus()
    const team = await open(workspace)
    const roster = team.host.roster()
    expect(roster.team_name).toBe('default')
    expect(roster.members.map((member) => [member.name, member.role, member.status])).toEqual([
      ['alice', 'coder', 'idle'],
      ['bob', 'tester', 'shutdown'],
      ['carol', 'writer', 'idle'],
      ['dan', 'checker', 'idle'],
      ['erin', 'reader', 'idle'],
    ])
    expect(team.host.modelChoice('bob')).toEqual({ model: 'claude-haiku-4-5', thinking: 2048 })
    expect(team.host.modelChoice('alice')).toEqual({ model: null, thinking: null })
    expect(team.host.permission('dan').approval).toBe('ask')
    const carol = team.host.team.roster.find('carol')
    expect(carol).toMatchObject({
      plan_first: true,
      plan_approved: expect.stringMatching(/^plan-/),
    })
    expect(team.host.budgetOf(null)).toEqual({ tokens: null, rounds: null, usd: 20 })
    expect(team.host.budgetOf('alice')).toEqual({ tokens: 400_000, rounds: 60, usd: 5 })
    expect(team.host.budgetOf('bob')).toEqual({ tokens: 50_000, rounds: null, usd: null })
    // What each one spent, added up from the transcripts (and their totals files).
    expect(roster.members.find((member) => member.name === 'erin')?.rounds).toBeGreaterThan(8)
    expect(team.server.requests).toEqual([])
  })

  it('reads every inbox: archived and live segments, delivered, rejected and pending mail', async () => {
    const { workspace } = copyOfCorpus()
    const team = await open(workspace)
    const alice = (await team.host.inbox('alice')).entries
    expect(
      alice.map((entry) => [
        entry.state,
        `${entry.position.segment}:${entry.position.offset}`,
        entry.message?.from,
        entry.message?.content,
      ]),
    ).toEqual([
      ['delivered', '1:0', 'ops', 'Deploy window opens at noon.'],
      ['delivered', '2:0', 'ops', 'Noon is confirmed.'],
      ['pending', '2:90', 'ops', 'Please also handle quotes.'],
      ['pending', '2:188', 'lead', 'After quotes, update the docs.'],
    ])
    // s09's four fields only: the line's place is its id. Ours carries its own.
    expect(alice[2]?.message).toMatchObject({ id: 'p2-90', type: 'message', to: 'alice' })
    expect(alice[3]?.message?.id).toMatch(/^m-/)
    const pending = (await team.host.inbox('alice', { pendingOnly: true })).entries
    expect(pending.map((entry) => entry.message?.content)).toEqual([
      'Please also handle quotes.',
      'After quotes, update the docs.',
    ])

    const lead = (await team.host.inbox('lead')).entries
    expect(lead.map((entry) => [entry.state, entry.message?.type, entry.message?.from])).toEqual([
      ['delivered', 'message', 'alice'],
      ['delivered', 'plan_approval_response', 'carol'],
      ['rejected', undefined, undefined],
      ['pending', 'message', 'alice'],
    ])
    // Set aside when the lead took its mail in (mailbox/lead/rejected.jsonl), raw bytes kept.
    expect(lead[2]?.reason).toMatch(/field "type" must be one of .* \(found "memo"\)/)
    expect(Buffer.from(lead[2]?.rawBase64 ?? '', 'base64').toString()).toContain('"type":"memo"')
    // The plan's notice keeps its extra fields as written.
    expect(lead[1]?.message?.extra).toMatchObject({ request_id: expect.stringMatching(/^plan-/) })
    // bob's last line was delivered by `agent-teams drain`, which keeps the ids it delivered.
    const bob = (await team.host.inbox('bob')).entries
    expect(bob.map((entry) => [entry.state, entry.message?.type])).toEqual([
      ['delivered', 'shutdown_request'],
      ['delivered', 'message'],
    ])
    expect(team.server.requests).toEqual([])
  })

  it('reads every transcript: each record kind, thinking, an interrupted turn, a compaction', async () => {
    const { workspace } = copyOfCorpus()
    const team = await open(workspace)
    const all = (name: string) => team.host.transcript(name, { limit: 1000 }).records
    expect(kinds(all('lead'))).toEqual([
      'user',
      'assistant',
      'tool-result',
      'assistant',
      'inbox',
      'assistant',
      'inbox',
      'assistant',
      'user',
      'assistant',
    ])
    expect(all('lead')[0]).toMatchObject({
      from: 'user',
      text: 'Set up the parser work: alice writes it.',
    })
    const aliceCalls = all('alice').flatMap((record) =>
      record.kind === 'assistant'
        ? record.content.flatMap((block) => (block.type === 'tool_use' ? [block.name] : []))
        : [],
    )
    expect(aliceCalls).toEqual([
      'claim_task',
      'write_file',
      'bash',
      'complete_task',
      'send_message',
      'claim_task',
    ])
    expect(
      all('alice').find((record) => record.kind === 'tool-result' && record.name === 'bash'),
    ).toMatchObject({ content: 'parsed a,b\n', is_error: false })

    // bob thought before his command: a signed thinking block and a redacted one, kept whole.
    const bobTurn = all('bob').find((record) => record.kind === 'assistant')
    expect(bobTurn?.kind === 'assistant' && bobTurn.content.map((block) => block.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'tool_use',
    ])
    expect(kinds(all('bob')).at(-1)).toBe('status')

    // erin compacted once, then was stopped while her reply streamed.
    const erin = all('erin')
    expect(kinds(erin).filter((kind) => kind === 'compaction')).toHaveLength(1)
    const compaction = erin.find((record) => record.kind === 'compaction')
    expect(compaction).toMatchObject({
      trigger: 'threshold',
      window: 6000,
      summary: expect.stringContaining('You have been reading parts of the corpus.'),
    })
    const interrupted = erin.at(-2)
    expect(interrupted).toMatchObject({
      kind: 'assistant',
      stop_reason: 'interrupted',
      usage_estimated: true,
    })
    expect(erin.at(-1)).toMatchObject({
      kind: 'status',
      status: 'idle',
      reason: 'stopped by the person',
    })
    // Sequence numbers run 1, 2, … in every transcript, and `total` is the last.
    for (const name of ['lead', 'alice', 'bob', 'carol', 'dan', 'erin']) {
      const page = team.host.transcript(name, { limit: 1000 })
      expect(page.records.map((record) => record.seq)).toEqual(
        page.records.map((_, index) => index + 1),
      )
      expect(page.total).toBe(page.records.length)
    }
    expect(team.server.requests).toEqual([])
  })

  it('reads the board, giving back a task its owner held when the team closed', async () => {
    const { workspace } = copyOfCorpus()
    const team = await open(workspace)
    const board = team.host.tasks.view()
    expect(board.problems).toEqual([])
    expect(
      board.tasks.map((task) => [task.id, task.subject, task.status, task.owner, task.blocked_by]),
    ).toEqual([
      ['1', 'Write the parser', 'done', 'alice', []],
      ['2', 'Test the parser', 'pending', null, ['1']],
      ['3', 'Document the parser', 'pending', null, []],
    ])
    expect(board.tasks[0]?.result).toBe('parser.js splits on commas.')
    expect(board.tasks[1]?.notes.at(-1)?.text).toBe(
      'released: alice was not running when the team opened (a restart)',
    )
    expect(team.server.requests).toEqual([])
  })

  it('reads protocols, the Needs-you queue, profiles, the note, hosts and MCP servers', async () => {
    const { workspace } = copyOfCorpus()
    const team = await open(workspace)
    expect(
      team.host
        .protocolRequests()
        .map((request) => [request.kind, request.from, request.to, request.status]),
    ).toEqual([
      ['plan', 'carol', 'lead', 'approved'],
      ['shutdown', 'user', 'bob', 'approved'],
    ])
    expect(
      team.host.needsYou.entries().map((entry) => [entry.agent, entry.kind, entry.status]),
    ).toEqual([
      ['carol', 'plan', 'resolved'],
      ['dan', 'tool', 'approved'],
    ])
    expect(team.host.note.read()).toMatchObject({
      text: 'Keep functions small; never edit generated/.',
      problem: null,
    })
    // What the workspace grants is read, shown to the person, and applies only once trusted.
    const trust = team.host.trust.view()
    expect(trust).toMatchObject({ trusted: false, reason: 'no-record', problems: [] })
    expect(trust.grants.allowedHosts.map((grant) => grant.host)).toEqual([
      '*.example.com:443',
      'registry.npmjs.org',
    ])
    expect(trust.grants.approveAlways).toEqual([
      expect.objectContaining({ agent: 'dan', tool: 'bash', pattern: 'echo check' }),
    ])
    expect(trust.grants.mcpServers.map((server) => server.name)).toEqual(['notes'])
    expect(trust.grants.profiles).toEqual([expect.objectContaining({ name: 'docs-writer' })])
    expect(team.host.profiles.problem()).toMatch(/not trusted yet/)
    expect(team.host.mcp.state().servers).toEqual([
      expect.objectContaining({ name: 'notes', status: 'off' }),
    ])
    expect(team.server.requests).toEqual([])
  })

  it('opens and closes without rewriting a file that others append to', async () => {
    const { workspace, paths } = copyOfCorpus()
    const appendOnly = filesUnder(paths.root).filter(
      (file) => file.endsWith('.jsonl') || file.endsWith('delivered-ids.txt'),
    )
    expect(appendOnly.length).toBeGreaterThan(10)
    const before = new Map(appendOnly.map((file) => [file, readFileSync(join(paths.root, file))]))
    const team = await open(workspace)
    await team.host.whenIdle()
    await team.host.close()
    for (const [file, bytes] of before)
      expect(readFileSync(join(paths.root, file)).equals(bytes), file).toBe(true)
  })
})

describe('files of format version 1 that must be refused', () => {
  /** A copy of the corpus with `file` of refused/ put at `target` (under `.team/`). */
  function withRefused(file: string, target: string): { workspace: string; paths: TeamPaths } {
    const copy = copyOfCorpus()
    copyFileSync(join(REFUSED, file), join(copy.paths.root, target))
    return copy
  }

  it.each([
    ['config-torn.json', /config\.json:14:14: not valid JSON/],
    [
      'config-bad-thinking.json',
      /config\.json:17:19: members\[1\]\.thinking is below the API's minimum/,
    ],
    ['config-newer.json', /format_version 2 is newer than this app reads \(1\); update the app/],
  ])('a roster %s: the team does not open, the file is kept as it is', async (file, reason) => {
    const { workspace, paths } = withRefused(file, 'config.json')
    await expect(open(workspace)).rejects.toMatchObject({
      code: 'roster-invalid',
      message: expect.stringMatching(reason),
    })
    expect(readFileSync(paths.config)).toEqual(readFileSync(join(REFUSED, file)))
    expect(existsSync(join(paths.root, 'runtime.lock'))).toBe(false)
  })

  it.each([
    [
      'cursor-not-json.json',
      'mailbox/alice/cursor.json',
      /cursor file .* is damaged; move it aside/,
    ],
    ['protocols-not-a-list.json', 'protocols.json', /protocols\.json is damaged; move it aside/],
  ])(
    '%s as %s: the team does not open, says which file, and lets go of it',
    async (file, target, reason) => {
      const { workspace, paths } = withRefused(file, target)
      await expect(open(workspace)).rejects.toMatchObject({
        message: expect.stringMatching(reason),
      })
      expect(readFileSync(join(paths.root, target))).toEqual(readFileSync(join(REFUSED, file)))
      expect(existsSync(join(paths.root, 'runtime.lock'))).toBe(false)
      expect(existsSync(join(paths.root, 'mailbox', 'alice', 'consumer.lock'))).toBe(false)
    },
  )

  it('a note, allowed hosts and profiles it cannot read are left out, each with its reason', async () => {
    const { workspace } = copyOfCorpus()
    const paths = new TeamPaths(workspace)
    copyFileSync(join(REFUSED, 'note-newer.json'), join(paths.root, 'note.json'))
    copyFileSync(join(REFUSED, 'sandbox-bad-host.json'), join(paths.root, 'sandbox.json'))
    copyFileSync(join(REFUSED, 'profiles-unknown-tool.json'), join(paths.root, 'profiles.json'))
    const team = await open(workspace)
    expect(team.host.note.read()).toMatchObject({
      text: '',
      problem: expect.stringContaining('v is not a note format this version reads (expected 1)'),
    })
    const trust = team.host.trust.view()
    expect(trust.grants.allowedHosts).toEqual([])
    expect(trust.problems).toEqual([
      expect.stringMatching(/sandbox\.json is not valid .*no host is allowed until it is fixed/),
      expect.stringMatching(/profiles\.json is not a profiles file: profiles\.0\.tools\.1/),
    ])
    expect(team.host.profiles.problem()).toMatch(/only the built-in profiles apply/)
    for (const [file, target] of [
      ['note-newer.json', 'note.json'],
      ['sandbox-bad-host.json', 'sandbox.json'],
      ['profiles-unknown-tool.json', 'profiles.json'],
    ] as const)
      expect(readFileSync(join(paths.root, target))).toEqual(readFileSync(join(REFUSED, file)))
  })

  it('task files that are not tasks of this board are skipped with their reason; the rest reads', async () => {
    const { workspace, paths } = copyOfCorpus()
    copyFileSync(join(REFUSED, 'task-4-says-7.json'), join(paths.root, 'tasks', '4.json'))
    copyFileSync(join(REFUSED, 'task-5-newer.json'), join(paths.root, 'tasks', '5.json'))
    copyFileSync(join(REFUSED, 'task-notes.txt'), join(paths.root, 'tasks', 'notes.txt'))
    const team = await open(workspace)
    const board = team.host.tasks.view()
    expect(board.tasks.map((task) => task.id)).toEqual(['1', '2', '3'])
    expect(board.problems.map((problem) => problem.message)).toEqual([
      'Task file 4.json is skipped: it holds task 7, not 4. Fix it or move it out of .team/tasks/.',
      'Task file 5.json is skipped: it was written by a newer version of Agent Teams (format 2). Fix it or move it out of .team/tasks/.',
    ])
  })

  it('inbox lines against the format are shown rejected with their reason; the mail around them is not lost', async () => {
    const { workspace, paths } = copyOfCorpus()
    appendFileSync(paths.inbox('alice'), readFileSync(join(REFUSED, 'inbox-lines.jsonl')))
    const team = await open(workspace)
    const entries = (await team.host.inbox('alice', { pendingOnly: true })).entries
    expect(entries.map((entry) => [entry.state, entry.message?.content ?? entry.reason])).toEqual([
      ['pending', 'Please also handle quotes.'],
      ['pending', 'After quotes, update the docs.'],
      ['rejected', expect.stringMatching(/"p2-0" has the form p<segment>-<offset>/)],
      ['rejected', 'format version 2 is newer than this app reads (1)'],
      ['rejected', 'addressed to "bob" but found in the inbox of "alice"'],
      ['rejected', expect.stringMatching(/field "type" must be one of .* \(found "telegram"\)/)],
      ['rejected', 'field "content" must be a string (found nothing)'],
      ['rejected', 'not valid JSON: the key "__proto__" is not allowed'],
      ['rejected', expect.stringMatching(/^not valid JSON: Unexpected token/)],
    ])
    expect(team.server.requests).toEqual([])
  })
})
