import type { ModelRequest, RequestContext, Reply, Script, Turn } from '../script'
import { everydayLead, everydayTeammate } from './everyday'
import { latestResults, mailSeen, sinceLatestTask, toolCalls } from './reading'
import { teamStatus } from './team-status'

/** What the person asks in the offline demo. */
export const DEMO_REQUEST =
  'Build a small statistics module with tests: have a coder write it and a tester check it, then tell me how it went.'

export const DEMO_MODULE_PATH = 'demo/stats.mjs'
export const DEMO_TEST_PATH = 'demo/stats.test.mjs'

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

/**
 * The offline demo: a scripted model that plays the lead, a coder and a tester. Each reply is
 * decided from the request — the tool results and messages that really came back — so the
 * team reacts to what happens (a failed write, failing tests) instead of replaying a tape.
 */
export function demoScript(): Script {
  return (request: ModelRequest, context: RequestContext): Reply => {
    const agent = context.agent ?? 'lead'
    // Each part is played from the turn that gave it (so `demo` run again in the same folder
    // plays it again), and only while that turn is the latest: after it, the everyday rules.
    if (agent === 'lead') {
      const demo = sinceLatestTask(request, (text) => text === DEMO_REQUEST)
      return demo === null ? everydayLead(request) : lead(demo)
    }
    // A shutdown request is answered the everyday way (approved), whatever part the agent plays.
    if (mailSeen(request, true).some((mail) => mail.type === 'shutdown_request'))
      return everydayTeammate(agent, request)
    const coding = sinceLatestTask(request, (text) => text.includes(`Write ${DEMO_MODULE_PATH}`))
    if (coding !== null) return coder(coding)
    const testing = sinceLatestTask(request, (text) =>
      text.includes(`tests for it with node:test in ${DEMO_TEST_PATH}`),
    )
    if (testing !== null) return tester(testing)
    return everydayTeammate(agent, request)
  }
}

function lead(request: ModelRequest): Reply {
  const calls = toolCalls(request)
  const results = latestResults(request)
  const spawned = calls.filter((item) => item.name === 'spawn_teammate')
  if (spawned.length === 0) {
    return {
      content: [
        { type: 'text', text: "I'll put a coder and a tester on it." },
        {
          type: 'tool_use',
          name: 'spawn_teammate',
          input: {
            name: 'alice',
            role: 'coder',
            prompt: `Write ${DEMO_MODULE_PATH}, an ES module exporting mean(values) and median(values). When it is written, send bob the path so that he can test it.`,
          },
        },
        {
          type: 'tool_use',
          name: 'spawn_teammate',
          input: {
            name: 'bob',
            role: 'tester',
            prompt: `Wait for alice's message naming her module, then write tests for it with node:test in ${DEMO_TEST_PATH}, run them with bash, and report the result to the lead.`,
          },
        },
      ],
    }
  }
  if (results.some((result) => result.name === 'spawn_teammate')) {
    const failed = results.filter((result) => result.isError)
    if (failed.length > 0)
      return say(
        `I could not start the whole team: ${failed.map((result) => result.content).join('; ')}`,
      )
    return say('alice (coder) and bob (tester) are on it. I will sum up when bob reports.')
  }
  const report = mailSeen(request, true).find((mail) => mail.from === 'bob')
  if (report) {
    const passed = /all \d+ tests? passed/i.test(report.content)
    return say(
      passed
        ? `Done. alice wrote ${DEMO_MODULE_PATH} (mean and median) and bob's tests pass: ${report.content}`
        : `bob's tests did not pass; here is his report: ${report.content}`,
    )
  }
  const news = mailSeen(request, true)
  if (news.length > 0)
    return say(`Noted (${news.map((mail) => `${mail.from}: ${mail.content}`).join('; ')}).`)
  // Woken with nothing new for the demo (a list_teammates answer, say): the team's real state.
  return teamStatus(request)
}

function coder(request: ModelRequest): Reply {
  const calls = toolCalls(request)
  const results = latestResults(request)
  if (!calls.some((item) => item.name === 'write_file')) {
    return call('Writing the module.', 'write_file', {
      path: DEMO_MODULE_PATH,
      content: MODULE_SOURCE,
    })
  }
  const written = results.find((result) => result.name === 'write_file')
  if (written?.isError)
    return call('The write failed; telling the lead.', 'send_message', {
      to: 'lead',
      content: `I could not write ${DEMO_MODULE_PATH}: ${written.content}`,
    })
  if (written)
    return call('Telling bob it is ready.', 'send_message', {
      to: 'bob',
      content: `${DEMO_MODULE_PATH} is ready: it exports mean(values) and median(values). Please test it.`,
    })
  if (results.some((result) => result.name === 'send_message'))
    return say('The module is written and bob has been told.')
  return say('Nothing more to do for now.')
}

function tester(request: ModelRequest): Reply {
  const calls = toolCalls(request)
  const results = latestResults(request)
  const fromAlice = mailSeen(request).find((mail) => mail.from === 'alice')
  if (!fromAlice) return say("Waiting for alice's message about her module.")
  const modulePath = /\S+\.m?js/.exec(fromAlice.content)?.[0] ?? DEMO_MODULE_PATH
  if (!calls.some((item) => item.name === 'write_file')) {
    return call(`Writing tests for ${modulePath}.`, 'write_file', {
      path: DEMO_TEST_PATH,
      content: testSource(modulePath),
    })
  }
  const latest = results[results.length - 1]
  if (latest?.name === 'write_file') {
    if (latest.isError)
      return call('I could not write the tests; telling the lead.', 'send_message', {
        to: 'lead',
        content: `I could not write ${DEMO_TEST_PATH}: ${latest.content}`,
      })
    return call('Running the tests.', 'bash', { command: `node --test ${DEMO_TEST_PATH}` })
  }
  if (latest?.name === 'bash') {
    // node --test's summary: `# pass 4` from the TAP reporter (Node 20's default off a
    // terminal), `ℹ pass 4` from the spec reporter (the default since Node 23).
    const pass = Number(/^[#ℹ] pass (\d+)/m.exec(latest.content)?.[1] ?? 0)
    const fail = Number(/^[#ℹ] fail (\d+)/m.exec(latest.content)?.[1] ?? 0)
    const verdict =
      !latest.isError && fail === 0 && pass > 0
        ? `All ${pass} tests passed.`
        : `${fail} of ${pass + fail} tests failed.`
    return call('Reporting to the lead.', 'send_message', {
      to: 'lead',
      content: `${verdict} (node --test ${DEMO_TEST_PATH}, for alice's ${modulePath})`,
    })
  }
  if (latest?.name === 'send_message') return say('Reported to the lead.')
  return say('Nothing more to test for now.')
}
