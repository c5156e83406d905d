import type { EngineName } from '../../shared/engine'
import type { ModelRequest, Reply, Turn, TurnBlock } from '../script'
import { DEMO_MODULE_PATH, DEMO_TEST_PATH } from './demo-teammates'
import { latestResults, mailSeen, toolCalls, type ToolResultSeen } from './reading'
import { teamStatus } from './team-status'

const say = (text: string): Turn => ({ content: [{ type: 'text', text }] })
const use = (name: string, input: Record<string, unknown>): TurnBlock => ({
  type: 'tool_use',
  name,
  input,
})

/** "Created #3 [pending] …": the new task's id. */
function createdId(result: ToolResultSeen | undefined): string | null {
  if (result === undefined || result.isError) return null
  return /^Created #(\d+)/.exec(result.content)?.[1] ?? null
}

/**
 * The lead's part: it splits the request into two tasks on the board (the tests blocked by the
 * module), spawns a coder and a tester naming their tasks, and once the tester reports, sums up
 * from the real state: the board (list_tasks) and the roster with each branch (list_teammates).
 * When the board refuses a task, the team is spawned without it, and says so.
 */
export function lead(request: ModelRequest, testerEngine: EngineName): Reply {
  const calls = toolCalls(request)
  const results = latestResults(request)
  const created = calls.filter((item) => item.name === 'create_task')
  const spawned = calls.filter((item) => item.name === 'spawn_teammate')
  if (created.length === 0)
    return {
      content: [
        { type: 'text', text: "I'll put the work on the board as two tasks, then a team on it." },
        use('create_task', {
          subject: `Write ${DEMO_MODULE_PATH}`,
          description: 'An ES module exporting mean(values) and median(values).',
        }),
      ],
    }
  if (spawned.length === 0) {
    const made = results.find((result) => result.name === 'create_task')
    if (created.length === 1 && made !== undefined && !made.isError) {
      const first = createdId(made)
      return {
        content: [
          { type: 'text', text: 'The tests wait on the module.' },
          use('create_task', {
            subject: `Test ${DEMO_MODULE_PATH}`,
            description: `Tests with node:test in ${DEMO_TEST_PATH}; run them and report.`,
            ...(first === null ? {} : { blocked_by: [first] }),
          }),
        ],
      }
    }
    return spawnTeam(request, made?.isError === true ? made.content : null, testerEngine)
  }
  if (results.some((result) => result.name === 'spawn_teammate')) {
    const failed = results.filter((result) => result.isError)
    if (failed.length > 0)
      return say(
        `I could not start the whole team: ${failed.map((result) => result.content).join('; ')}`,
      )
    return say('alice (coder) and bob (tester) are on it. I will sum up when bob reports.')
  }
  if (results.some((result) => result.name === 'list_tasks')) return summary(request, results)
  if (mailSeen(request, true).some((mail) => mail.from === 'bob'))
    return {
      content: [
        { type: 'text', text: 'bob has reported; let me look at the board and the branches.' },
        use('list_tasks', {}),
        use('list_teammates', {}),
      ],
    }
  const news = mailSeen(request, true)
  if (news.length > 0)
    return say(`Noted (${news.map((mail) => `${mail.from}: ${mail.content}`).join('; ')}).`)
  // Woken with nothing new for the demo (a list_teammates answer, say): the team's real state.
  return teamStatus(request)
}

/**
 * Spawns alice and bob, each told the task it claims (when the board took them); bob on
 * `testerEngine` (a spawn of a member already on the roster keeps the engine it has).
 */
function spawnTeam(
  request: ModelRequest,
  boardError: string | null,
  testerEngine: EngineName,
): Reply {
  const ids = toolCalls(request)
    .filter((item) => item.name === 'create_task')
    .map((item) => createdIdOf(request, item.id))
  const [write = null, test = null] = ids
  const intro =
    boardError === null
      ? `Tasks ${[write, test]
          .filter((id) => id !== null)
          .map((id) => `#${id}`)
          .join(' and ')} are on the board. A coder and a tester will take them.`
      : `I could not put the work on the board (${boardError}); the team works without it.`
  return {
    content: [
      { type: 'text', text: intro },
      use('spawn_teammate', {
        name: 'alice',
        role: 'coder',
        prompt: `${write === null ? '' : `Claim task #${write} on the board. `}Write ${DEMO_MODULE_PATH}, an ES module exporting mean(values) and median(values). When it is written, ${write === null ? '' : 'complete the task and '}send bob the path so that he can test it.`,
      }),
      use('spawn_teammate', {
        name: 'bob',
        role: 'tester',
        prompt: `Wait for alice's message naming her module, then ${test === null ? '' : `claim task #${test} on the board, `}write tests for it with node:test in ${DEMO_TEST_PATH}, run them with bash, and report the result to the lead.`,
        ...(testerEngine === 'builtin' ? {} : { engine: testerEngine }),
      }),
    ],
  }
}

/** The id a create_task call got, read from its result anywhere in the conversation. */
function createdIdOf(request: ModelRequest, callId: string): string | null {
  for (const message of request.messages) {
    const content = (message as { content?: unknown }).content
    if (!Array.isArray(content)) continue
    for (const block of content as { type?: unknown; tool_use_id?: unknown; content?: unknown }[])
      if (block.type === 'tool_result' && block.tool_use_id === callId)
        return typeof block.content === 'string'
          ? createdId({
              toolUseId: callId,
              name: 'create_task',
              content: block.content,
              isError: false,
            })
          : null
  }
  return null
}

/** The branches list_teammates names: `  bob (tester): idle, …, branch team/bob, 2 files changed`. */
function branchesOf(roster: string): string[] {
  return roster.split('\n').flatMap((line) => {
    const match =
      /^\s+([a-z][a-z0-9_-]*) \(.*, branch (team\/[a-z][a-z0-9_-]*), (\d+ files? changed)/.exec(
        line,
      )
    return match === null ? [] : [`${match[1]} on ${match[2]} (${match[3]})`]
  })
}

/** The lead's last word on the demo: bob's verdict, the board, and where the work waits. */
function summary(request: ModelRequest, results: readonly ToolResultSeen[]): Reply {
  const report = mailSeen(request).findLast((mail) => mail.from === 'bob')?.content ?? ''
  const passed = /all \d+ tests? passed/i.test(report)
  const headline = passed
    ? `Done. alice wrote ${DEMO_MODULE_PATH} (mean and median) and bob's tests pass: ${report}`
    : `bob's tests did not pass; here is his report: ${report}`
  const board = results.find((result) => result.name === 'list_tasks')
  const roster = results.find((result) => result.name === 'list_teammates')
  const branches = roster === undefined || roster.isError ? [] : branchesOf(roster.content)
  const lines = [
    headline,
    '',
    board === undefined || board.isError
      ? `I could not read the board: ${board?.content ?? 'no answer'}`
      : `The board now:\n${board.content}`,
  ]
  if (branches.length > 0)
    lines.push(
      '',
      `The work waits on the teammates' own branches: ${branches.join('; ')}. ` +
        "Open a teammate's Changes to read the diff, comment on a line (it fixes it), or Accept to merge it; a task in review moves to done when its branch is merged.",
    )
  return say(lines.join('\n'))
}
