import type { ModelRequest, Reply, Turn } from '../script'
import { exchanges, latestTexts, mailSeen, ownBranch, type ExchangeSeen } from './reading'
import { commitCommand } from './review-comment'

/**
 * alice's and bob's parts in the offline demo. Each is a list of steps played in order, one per
 * model call, decided from what really came back: a step that fails ends the part with a word
 * to the lead (and the task handed back), never with a step that assumes it worked.
 *
 * The board: each claims the task its spawn prompt names ("task #3"). alice completes hers
 * (done), which unblocks bob's; bob, whose task nothing waits on, hands his in for review when
 * he works in a worktree (the person merges his branch, which moves it to done), and completes
 * it otherwise. In a worktree each commits its work, and bob first takes alice's branch in
 * (`git merge team/alice`), since his worktree began before her module existed.
 */
export const DEMO_MODULE_PATH = 'demo/stats.mjs'
export const DEMO_TEST_PATH = 'demo/stats.test.mjs'
export const DEMO_TEST_COMMAND = `node --test ${DEMO_TEST_PATH}`

const MODULE_SOURCE = `// Small statistics helpers, written by alice in the Agent Teams offline demo.
export function mean(values) {
  if (values.length === 0) throw new RangeError('mean of an empty list')
  return values.reduce((sum, value) => sum + value, 0) / values.length
}

export function median(values) {
  if (values.length === 0) throw new RangeError('median of an empty list')
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
`

function testSource(modulePath: string): string {
  const relative = `./${modulePath.split('/').pop() ?? 'stats.mjs'}`
  return `// Tests by bob, the tester, for alice's module.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mean, median } from '${relative}'

test('mean of a list', () => assert.equal(mean([1, 2, 3, 4]), 2.5))
test('median of an odd list', () => assert.equal(median([5, 1, 3]), 3))
test('median of an even list', () => assert.equal(median([4, 1, 3, 2]), 2.5))
test('an empty list is refused', () => assert.throws(() => mean([]), RangeError))
`
}

const say = (text: string): Turn => ({ content: [{ type: 'text', text }] })
const call = (text: string, name: string, input: Record<string, unknown>): Turn => ({
  content: [
    { type: 'text', text },
    { type: 'tool_use', name, input },
  ],
})
const message = (to: string, content: string) => ({
  type: 'tool_use' as const,
  name: 'send_message',
  input: { to, content },
})

/** One step of a part: the call it makes, and the words it fails with. */
interface Step {
  readonly turn: Turn
  readonly failure: (error: string) => string
}

/** The task the spawn prompt names ("claim task #3"), or null when it names none. */
function taskOf(request: ModelRequest): string | null {
  const prompt = latestTexts({ ...request, messages: request.messages.slice(0, 1) }).join('\n')
  return /\btask #(\d+)/i.exec(prompt)?.[1] ?? null
}

/**
 * Plays `steps` in order, one per call; after a failed one (the test run excepted: failing
 * tests are news, not a failure), tells the lead and, holding a task, hands it back.
 */
function play(
  played: ExchangeSeen[],
  steps: readonly Step[],
  task: string | null,
  done: string,
  isVerdict: (step: ExchangeSeen) => boolean = () => false,
): Reply {
  const failedAt = played.findIndex((step) => step.result?.isError === true && !isVerdict(step))
  if (failedAt >= 0) {
    const failed = played[failedAt]
    if (failedAt < played.length - 1 || failed === undefined) return say('I told the lead.')
    const words = steps[failedAt]?.failure(failed.result?.content ?? '') ?? 'A step failed.'
    const heldTask = task !== null && failed.call.name !== 'claim_task'
    return {
      content: [
        { type: 'text', text: `${words.split(':')[0] ?? words}; telling the lead.` },
        ...(heldTask
          ? [
              {
                type: 'tool_use' as const,
                name: 'update_task',
                input: { id: task, status: 'pending', note: words },
              },
            ]
          : []),
        message('lead', words),
      ],
    }
  }
  return steps[played.length]?.turn ?? say(done)
}

/** alice: claim her task, write the module, commit it, complete the task, tell bob. */
export function coder(agent: string, request: ModelRequest): Reply {
  const task = taskOf(request)
  const branch = ownBranch(request)
  const where = branch === null ? '' : ` on ${branch}`
  const steps: Step[] = [
    ...(task === null ? [] : [claim(task)]),
    {
      turn: call('Writing the module.', 'write_file', {
        path: DEMO_MODULE_PATH,
        content: MODULE_SOURCE,
      }),
      failure: (error) => `I could not write ${DEMO_MODULE_PATH}: ${error}`,
    },
    ...(branch === null ? [] : [commit(agent, `Add ${DEMO_MODULE_PATH}: mean and median`)]),
    ...(task === null
      ? []
      : [
          {
            turn: call(`Task #${task} is done.`, 'complete_task', {
              id: task,
              result: `${DEMO_MODULE_PATH} exports mean(values) and median(values)${where}.`,
            }),
            failure: (error: string) => `I could not complete task #${task}: ${error}`,
          },
        ]),
    {
      turn: call('Telling bob it is ready.', 'send_message', {
        to: 'bob',
        content: `${DEMO_MODULE_PATH} is ready${where}: it exports mean(values) and median(values). Please test it.`,
      }),
      failure: (error) => `I could not tell bob that ${DEMO_MODULE_PATH} is ready: ${error}`,
    },
  ]
  return play(
    exchanges(request),
    steps,
    task,
    `The module is written${branch === null ? '' : ' and committed'} and bob has been told.`,
  )
}

/** bob: once alice's message came, claim, take her branch in, test, commit, hand in, report. */
export function tester(agent: string, request: ModelRequest): Reply {
  const fromAlice = mailSeen(request).find((mail) => mail.from === 'alice')
  if (!fromAlice) return say("Waiting for alice's message about her module.")
  const task = taskOf(request)
  const branch = ownBranch(request)
  const modulePath = /\S+\.m?js/.exec(fromAlice.content)?.[0] ?? DEMO_MODULE_PATH
  const aliceBranch = /\bteam\/[a-z][a-z0-9_-]*/.exec(fromAlice.content)?.[0] ?? null
  const played = exchanges(request)
  const isTestRun = (step: ExchangeSeen): boolean =>
    step.call.name === 'bash' && step.call.input.command === DEMO_TEST_COMMAND
  const verdict = testVerdict(played.find(isTestRun))
  const inReview = branch !== null && task !== null
  const steps: Step[] = [
    ...(task === null ? [] : [claim(task)]),
    ...(branch === null || aliceBranch === null
      ? []
      : [
          {
            turn: call(`Taking alice's ${aliceBranch} into my worktree.`, 'bash', {
              command: `git -c user.name=${agent} -c user.email=${agent}@agent-teams.local merge --no-edit -q ${aliceBranch}`,
            }),
            failure: (error: string) => `I could not take ${aliceBranch} into ${branch}: ${error}`,
          },
        ]),
    {
      turn: call(`Writing tests for ${modulePath}.`, 'write_file', {
        path: DEMO_TEST_PATH,
        content: testSource(modulePath),
      }),
      failure: (error) => `I could not write ${DEMO_TEST_PATH}: ${error}`,
    },
    {
      turn: call('Running the tests.', 'bash', { command: DEMO_TEST_COMMAND }),
      failure: (error) => `The tests could not run: ${error}`,
    },
    ...(branch === null ? [] : [commit(agent, `Test ${modulePath} with node:test`)]),
    ...(task === null
      ? []
      : [
          inReview
            ? {
                turn: call(`Task #${task} waits for the person's review.`, 'update_task', {
                  id: task,
                  status: 'review',
                  note: `${verdict} On ${branch}, ready to merge.`,
                }),
                failure: (error: string) => `I could not hand task #${task} in: ${error}`,
              }
            : {
                turn: call(`Task #${task} is done.`, 'complete_task', {
                  id: task,
                  result: verdict,
                }),
                failure: (error: string) => `I could not complete task #${task}: ${error}`,
              },
        ]),
    {
      turn: call('Reporting to the lead.', 'send_message', {
        to: 'lead',
        content: `${verdict} (${DEMO_TEST_COMMAND}, for alice's ${modulePath})`,
      }),
      failure: (error) => `I could not report to the lead: ${error}`,
    },
  ]
  return play(played, steps, task, 'Reported to the lead.', isTestRun)
}

/**
 * node --test's summary: `# pass 4` from the TAP reporter (Node 20's default off a terminal),
 * `ℹ pass 4` from the spec reporter (the default since Node 23).
 */
function testVerdict(run: ExchangeSeen | undefined): string {
  const output = run?.result?.content ?? ''
  const pass = Number(/^[#ℹ] pass (\d+)/m.exec(output)?.[1] ?? 0)
  const fail = Number(/^[#ℹ] fail (\d+)/m.exec(output)?.[1] ?? 0)
  return run?.result?.isError === false && fail === 0 && pass > 0
    ? `All ${pass} tests passed.`
    : `${fail} of ${pass + fail} tests failed.`
}

function claim(task: string): Step {
  return {
    turn: call(`Claiming task #${task}.`, 'claim_task', { id: task }),
    failure: (error) => `I could not claim task #${task}: ${error}`,
  }
}

function commit(agent: string, subject: string): Step {
  return {
    turn: call('Committing my work.', 'bash', { command: commitCommand(agent, subject) }),
    failure: (error) => `I could not commit my work: ${error}`,
  }
}
