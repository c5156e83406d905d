import { USER } from '../shared/names'
import { resumeAll, stopAll } from '../runtime/host/team-wide'
import { toInboxEntryView } from '../runtime/host/views'
import type { HandlersFor, TeamHandlerContext } from './handler-context'

type AgentCommand =
  | 'chat'
  | 'spawn'
  | 'stopAgent'
  | 'resumeAgent'
  | 'stopAll'
  | 'resumeAll'
  | 'setAgentModel'
  | 'setBudget'
  | 'sendMessage'
  | 'broadcast'
  | 'getTranscript'
  | 'getInbox'
  | 'requestShutdown'
  | 'reviewPlan'

/**
 * The person's commands to the team's agents: chat with the lead, spawn, mail, stop and resume,
 * models and budgets, the s10 protocols, and reading transcripts and inboxes. A command that
 * may start a model call is refused first when there is no model to call.
 */
export function agentHandlers(context: TeamHandlerContext): HandlersFor<AgentCommand> {
  const { host, knownAgent, assertModelSet } = context
  return {
    chat: async ({ text }) => {
      assertModelSet()
      host().chat(text)
      return {}
    },
    spawn: async (params) => {
      assertModelSet()
      return { summary: await host().spawn({ ...params, by: USER }) }
    },
    stopAgent: async ({ name }) => {
      host().stop(knownAgent(name))
      return {}
    },
    resumeAgent: async ({ name }) => {
      knownAgent(name)
      assertModelSet()
      host().resume(name)
      return {}
    },
    stopAll: async () => ({ count: stopAll(host()) }),
    resumeAll: async () => {
      assertModelSet()
      return { count: resumeAll(host()) }
    },
    setAgentModel: async ({ name, model, thinking }) => ({
      summary: host().setModel(knownAgent(name), { model, thinking }),
    }),
    setBudget: async ({ name, tokens, rounds, usd }) => {
      const team = host()
      const who = name === null ? null : knownAgent(name)
      team.setBudget(who, { tokens, rounds, usd: usd === undefined ? team.budgetOf(who).usd : usd })
      return {}
    },
    sendMessage: async ({ to, content, type }) => {
      assertModelSet()
      return { id: host().send({ to, content, type }).id }
    },
    broadcast: async ({ content }) => {
      assertModelSet()
      return { count: host().broadcast({ content }).length }
    },
    getTranscript: async ({ name, fromSeq, last, limit }) => {
      const team = host()
      knownAgent(name)
      if (last === undefined) return team.transcript(name, { fromSeq, limit })
      const total = team.transcript(name, { limit: 0 }).total
      return team.transcript(name, { fromSeq: Math.max(1, total - last + 1), limit: last })
    },
    getInbox: async ({ name, from, limit }) => {
      const page = await host().inbox(knownAgent(name), { from, limit })
      return { entries: page.entries.map(toInboxEntryView), next: page.next }
    },
    requestShutdown: async ({ name }) => ({
      requestId: host().requestShutdown(knownAgent(name)),
    }),
    reviewPlan: async ({ requestId, approve, feedback }) => ({
      summary: host().reviewPlan(requestId, approve, feedback ?? ''),
    }),
  }
}
