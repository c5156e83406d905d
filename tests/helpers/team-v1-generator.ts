// Makes the golden `.team/` of tests/fixtures/team-v1 with the runtime as it was when format
// version 1 was frozen: a team that worked through the offline model in two runs, then mail
// appended while it was closed. Run once, by hand; the corpus is committed and never made again
// (a format change must fail the test that reads it, not regenerate it):
//
//   npx tsx tests/helpers/team-v1-generator.ts <empty folder>
//
// The folder gets `team/` (the workspace's `.team/`, renamed so that git and the app leave it
// alone). Files that must be refused are written by hand beside it (see the corpus's README).
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs'
import { rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { OfflineModelServer } from '../../src/offline-model/offline-server'
import { text, toolCall, type ModelRequest, type Reply } from '../../src/offline-model/script'
import { TeamHost } from '../../src/runtime/host/host'
import { Mailbox } from '../../src/runtime/mailbox/mailbox'
import { Roster } from '../../src/runtime/roster/roster'
import { TeamPaths } from '../../src/runtime/team/paths'
import { isSummaryRequest, scriptedSummary, writeParts } from './compaction'
import { requestIdIn } from './faults'
import { waitFor } from './wait'

const WINDOW = 6_000
const LONG = { timeout: 60_000 }

/** The text of the last message's blocks: what the agent was just given. */
function lastText(body: ModelRequest): string {
  return JSON.stringify(body.messages.at(-1) ?? '')
}

/** alice's first activation, call by call: claim, write, run, complete, report. */
const aliceWork: Reply[] = [
  toolCall('claim_task', { id: '1' }),
  toolCall('write_file', {
    path: 'parser.js',
    content: 'export const parse = (text) => text.split(",")\n',
  }),
  toolCall('bash', { command: 'echo parsed a,b' }),
  toolCall('complete_task', { id: '1', result: 'parser.js splits on commas.' }),
  toolCall('send_message', { to: 'lead', content: 'The parser is done (task 1).' }),
  text('Done: parser.js, task 1 complete.'),
]
/** How many parts erin has asked for: 8 of 2,000 characters, compacting on the way. */
let erinReads = 0

/** Each agent's part, chosen by what it was just given, so wake timing cannot reorder it. */
function reply(agent: string, body: ModelRequest): Reply {
  if (isSummaryRequest(body)) return scriptedSummary(body)
  const last = lastText(body)
  const shutdown = requestIdIn(body, 'shutdown_request')
  if (shutdown !== null)
    return toolCall('shutdown_response', {
      request_id: shutdown,
      approve: true,
      reason: 'The tests pass; nothing left for me.',
    })
  const work = aliceWork[0]
  if (
    agent === 'alice' &&
    work !== undefined &&
    (last.includes('Claim task 1') || last.includes('tool_result'))
  ) {
    aliceWork.shift()
    return work
  }
  if (agent === 'erin' && last.includes('tool_result'))
    return erinReads < 8 ? readPart(++erinReads) : text('I have read every part.')
  return firstMove(agent, last)
}

function firstMove(agent: string, last: string): Reply {
  if (agent === 'lead' && last.includes('Set up the parser work'))
    return toolCall('spawn_teammate', {
      name: 'alice',
      role: 'coder',
      prompt: 'Claim task 1, write parser.js, and tell me when it is done.',
    })
  if (agent === 'bob' && last.includes('Test the parser'))
    return {
      ...toolCall('bash', { command: 'echo parser checked' }),
      thinking: 'parser.js exists; a quick run tells me whether it parses.',
      redactedThinking: true,
    }
  if (agent === 'carol' && last.includes('Write the docs'))
    return toolCall('submit_plan', { plan: 'Write docs.md: what the parser takes and returns.' })
  if (agent === 'carol' && last.includes('plan_approval_response'))
    return toolCall('write_file', { path: 'docs.md', content: '# Parser\n\nparse(text)\n' })
  // Left in progress when the team closes: the next open gives it back.
  if (agent === 'alice' && last.includes('Noon is confirmed'))
    return toolCall('claim_task', { id: '2' })
  if (agent === 'carol' && last.includes('to docs.md')) return toolCall('claim_task', { id: '3' })
  if (agent === 'dan' && last.includes('Run the check'))
    return toolCall('bash', { command: 'echo check passed' })
  if (agent === 'erin' && last.includes('Read every part')) return readPart(++erinReads)
  if (agent === 'erin' && last.includes('one more thing'))
    return {
      fault: 'stall',
      afterEvents: 6,
      milliseconds: 120_000,
      turn: text('So far: every part is the same sentence about a fox, numbered.'),
    }
  return text(`${agent}: noted.`)
}

function readPart(index: number): Reply {
  return toolCall('read_file', { path: `parts/part-${index % 10}.txt` })
}

async function open(workspace: string, server: OfflineModelServer, data: string) {
  return TeamHost.open({
    workspace,
    dataFolder: data,
    trust: { store: null, forRun: true },
    endpoint: {
      apiKey: 'test-key',
      baseURL: server.url,
      model: 'claude-sonnet-4-5',
      maxRetries: 0,
      contextWindow: WINDOW,
    },
  })
}

/** What the person sets before any agent works: note, hosts, a profile, a server, budgets, tasks. */
async function setUp(host: TeamHost): Promise<void> {
  if (process.env.TEAM_V1_DEBUG)
    host.subscribe((event) => {
      if (event.type !== 'text-delta') console.log('event', JSON.stringify(event).slice(0, 300))
    })
  host.note.write('Keep functions small; never edit generated/.', Date.now() / 1000)
  host.setAllowedHosts(['registry.npmjs.org', '*.example.com:443'])
  host.profiles.save({
    name: 'docs-writer',
    description: 'Writes documentation; no commands.',
    tools: ['read_file', 'write_file', 'send_message'],
    approval: 'auto',
    mcp: false,
  })
  await host.mcp.add('notes', { type: 'stdio', command: 'notes-server', args: ['--stdio'] })
  host.setBudget(null, { tokens: null, rounds: null, usd: 20 })
  host.tasks.create({ subject: 'Write the parser', by: 'user' })
  host.tasks.create({ subject: 'Test the parser', blockedBy: ['1'], by: 'user' })
}

/** alice writes the parser for the lead; bob thinks, then checks it. */
async function parserWork(host: TeamHost): Promise<void> {
  host.chat('Set up the parser work: alice writes it.')
  await host.whenIdle()
  host.setBudget('alice', { tokens: 400_000, rounds: 60, usd: 5 })
  await host.spawn({
    name: 'bob',
    role: 'tester',
    prompt: 'Test the parser.',
    model: 'claude-haiku-4-5',
    thinking: 2048,
  })
  await host.whenIdle()
}

/** carol's plan, approved by the person; bob shut down; dan's command, approved always. */
async function approvals(host: TeamHost): Promise<void> {
  await host.spawn({ name: 'carol', role: 'writer', prompt: 'Write the docs.', planFirst: true })
  host.tasks.create({ subject: 'Document the parser', owner: 'carol', by: 'lead' })
  await waitFor(() => host.protocolRequests().some((request) => request.kind === 'plan'))
  await host.whenIdle()
  const plan = host.protocolRequests().find((request) => request.kind === 'plan')
  if (plan !== undefined) host.reviewPlan(plan.id, true, 'Good plan.')
  await host.whenIdle()
  host.requestShutdown('bob')
  await waitFor(() => statusOf(host, 'bob') === 'shutdown', undefined, LONG)
  await host.whenIdle()
  await host.spawn({ name: 'dan', role: 'checker', prompt: 'Run the check.', approval: 'ask' })
  await waitFor(() => host.needsYou.pending().length === 1, undefined, LONG)
  const [asked] = host.needsYou.pending()
  if (asked !== undefined) host.answerNeedsYou({ id: asked.id, decision: 'approve-always' })
  await host.whenIdle()
}

/** erin reads until she compacts, then is stopped while her next reply streams. */
async function erinReadsAndIsStopped(host: TeamHost, workspace: string): Promise<void> {
  writeParts(workspace, 10, 2000, 'FACT: the parser splits on commas')
  await host.spawn({ name: 'erin', role: 'reader', prompt: 'Read every part, one by one.' })
  await host.whenIdle()
  const streamed: string[] = []
  const listening = host.subscribe((event) => {
    if (event.type === 'text-delta' && event.agent === 'erin') streamed.push(event.text)
  })
  host.send({ to: 'erin', content: 'And one more thing: summarize them.' })
  // Stopped mid-stream: an interrupted turn, then the stop's status record.
  await waitFor(() => streamed.length > 0, undefined, LONG)
  listening.dispose()
  host.stop('erin')
  await host.whenIdle()
}

/** Lines other programs append while the team runs: control commands, a bad line, mail. */
async function outsideWrites(host: TeamHost, paths: TeamPaths): Promise<void> {
  const at = Date.now() / 1000
  appendFileSync(
    paths.control,
    `${JSON.stringify({ v: 1, command: 'budget', name: 'bob', tokens: 50_000, rounds: null, at })}\n` +
      `${JSON.stringify({ v: 1, command: 'spawn', name: '../escape', at })}\n`,
  )
  await waitFor(() => existsSync(join(paths.root, 'control-rejected.jsonl')), undefined, LONG)
  appendFileSync(
    paths.inbox('lead'),
    `${JSON.stringify({ type: 'memo', from: 'ops', content: 'not a type s09 knows', timestamp: 1 })}\n`,
  )
  await waitFor(
    () => existsSync(join(paths.root, 'mailbox', 'lead', 'rejected.jsonl')),
    undefined,
    LONG,
  )
  appendFileSync(paths.inbox('alice'), s09Line('ops', 'Deploy window opens at noon.'))
  await waitFor(() => transcriptHas(host, 'alice', 'Deploy window'), undefined, LONG)
  await host.whenIdle()
}

/** While the team is closed: alice's inbox archived, bob's drained by another program. */
async function betweenRuns(paths: TeamPaths, mailbox: Mailbox): Promise<void> {
  const aliceInbox = mailbox.openConsumer('alice')
  aliceInbox.archive()
  aliceInbox.close()
  appendFileSync(paths.inbox('bob'), s09Line('ops', 'Nightly build is green.'))
  const drain = mailbox.openConsumer('bob', { keepDeliveredIds: true })
  drain.commit(await drain.poll())
  drain.close()
}

/** The second run: alice reads her new segment and takes task 2, then the team closes. */
async function secondRun(host: TeamHost, paths: TeamPaths): Promise<void> {
  appendFileSync(paths.inbox('alice'), s09Line('ops', 'Noon is confirmed.'))
  await waitFor(() => transcriptHas(host, 'alice', 'Noon is confirmed'), undefined, LONG)
  host.chat('Where are we?')
  await host.whenIdle()
}

/** Mail that comes while the team is closed: pending when it opens again. */
function mailWhileClosed(paths: TeamPaths, mailbox: Mailbox): void {
  appendFileSync(paths.inbox('alice'), s09Line('ops', 'Please also handle quotes.', 1796212979.188))
  mailbox.send({ from: 'lead', to: 'alice', content: 'After quotes, update the docs.' })
  appendFileSync(paths.inbox('lead'), s09Line('alice', 'Quotes next.', 1796212980))
}

function s09Line(from: string, content: string, timestamp = Date.now() / 1000): string {
  return `${JSON.stringify({ type: 'message', from, content, timestamp })}\n`
}

function statusOf(host: TeamHost, name: string): string | undefined {
  return host.roster().members.find((member) => member.name === name)?.status
}

function transcriptHas(host: TeamHost, name: string, text: string): boolean {
  return JSON.stringify(host.transcript(name).records).includes(text)
}

function debugScript(body: ModelRequest, context: { agent: string | null }): Reply {
  const answer = reply(context.agent ?? 'lead', body)
  if (process.env.TEAM_V1_DEBUG)
    console.log(
      context.agent,
      lastText(body).slice(0, 300),
      '=>',
      JSON.stringify(answer).slice(0, 200),
    )
  return answer
}

async function main(): Promise<void> {
  const out = process.argv[2]
  if (out === undefined) throw new Error('usage: team-v1-generator.ts <empty folder>')
  if (existsSync(out) && readdirSync(out).length > 0) throw new Error(`${out} is not empty`)
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-team-v1-'))
  const workspace = join(root, 'workspace')
  const data = join(root, 'data')
  mkdirSync(workspace)
  const paths = new TeamPaths(workspace)
  const server = await OfflineModelServer.start({
    script: debugScript,
    apiKey: 'test-key',
    contextWindow: WINDOW,
  })
  try {
    const first = await open(workspace, server, data)
    await setUp(first)
    await parserWork(first)
    await approvals(first)
    await erinReadsAndIsStopped(first, workspace)
    await outsideWrites(first, paths)
    await first.close()
    const roster = Roster.open(paths)
    const mailbox = new Mailbox(paths, { members: () => roster.memberNames() })
    await betweenRuns(paths, mailbox)
    const second = await open(workspace, server, data)
    await secondRun(second, paths)
    await second.close()
    mailWhileClosed(paths, mailbox)

    mkdirSync(out, { recursive: true })
    cpSync(paths.root, join(out, 'team'), { recursive: true })
    if (existsSync(join(out, 'team', 'runtime.lock'))) throw new Error('runtime.lock was left')
    console.log(`${out}/team written from ${server.requests.length} model requests`)
  } finally {
    await server.close()
    rmSync(root, { recursive: true, force: true })
  }
}

await main()
