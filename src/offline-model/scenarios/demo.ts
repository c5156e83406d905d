import type { ModelRequest, RequestContext, Reply, Script } from '../script'
import { onEitherEngine } from './claude-code-terms'
import { lead } from './demo-lead'
import { coder, DEMO_MODULE_PATH, DEMO_TEST_PATH, tester } from './demo-teammates'
import { everydayLead, everydayTeammate } from './everyday'
import { mailSeen, sinceLatestTask } from './reading'
import { reviewCommentReply } from './review-comment'

export { DEMO_MODULE_PATH, DEMO_TEST_PATH } from './demo-teammates'

/** What the person asks in the offline demo. */
export const DEMO_REQUEST =
  'Build a small statistics module with tests: have a coder write it and a tester check it, then tell me how it went.'

/** The same, with the tester on Claude Code (`agent-teams demo --claude-code`). */
export const DEMO_REQUEST_CLAUDE_CODE =
  'Build a small statistics module with tests: have a coder write it and a tester check it, the tester running on Claude Code, then tell me how it went.'

/**
 * The offline demo: a scripted model that plays the lead, a coder and a tester. Each reply is
 * decided from the request — the tool results and messages that really came back — so the
 * team reacts to what happens (a failed write, failing tests) instead of replaying a tape.
 *
 * The lead puts the work on the task board (`demo-lead.ts`), the teammates claim and finish
 * it, each in its own worktree when the workspace is a git repository (`demo-teammates.ts`),
 * and any teammate answers the person's review line comments (`review-comment.ts`). A teammate
 * on the Claude Code engine (`agent-teams demo --claude-code` makes bob one) plays the same part
 * in Claude Code's tool names (`claude-code-terms.ts`): asked for it, the lead spawns the
 * tester on that engine.
 */
export function demoScript(): Script {
  return (request: ModelRequest, context: RequestContext): Reply => {
    const agent = context.agent ?? 'lead'
    // Each part is played from the turn that gave it (so `demo` run again in the same folder
    // plays it again), and only while that turn is the latest: after it, the everyday rules.
    if (agent === 'lead') {
      const demo = sinceLatestTask(request, (text) => text === DEMO_REQUEST)
      if (demo !== null) return lead(demo, 'builtin')
      const onClaudeCode = sinceLatestTask(request, (text) => text === DEMO_REQUEST_CLAUDE_CODE)
      return onClaudeCode === null ? everydayLead(request) : lead(onClaudeCode, 'claude-code')
    }
    // A Claude Code teammate plays the same part, in Claude Code's tool names.
    return onEitherEngine(request, (seen) => teammate(agent, seen))
  }
}

/** A teammate's part: the coder's or the tester's by its task, a review comment, or everyday. */
function teammate(agent: string, request: ModelRequest): Reply {
  // A shutdown request is answered the everyday way (approved), whatever part the agent plays.
  if (mailSeen(request, true).some((mail) => mail.type === 'shutdown_request'))
    return everydayTeammate(agent, request)
  const review = reviewCommentReply(agent, request)
  if (review !== null) return review
  const coding = sinceLatestTask(request, (text) => text.includes(`Write ${DEMO_MODULE_PATH}`))
  if (coding !== null) return coder(agent, coding)
  const testing = sinceLatestTask(request, (text) =>
    text.includes(`tests for it with node:test in ${DEMO_TEST_PATH}`),
  )
  if (testing !== null) return tester(agent, testing)
  return everydayTeammate(agent, request)
}
