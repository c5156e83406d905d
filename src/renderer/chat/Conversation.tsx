import { LEAD } from '../../shared/names'
import { useAppStore } from '../store/context'
import type { LiveTool } from '../store/state'
import { Transcript } from './transcript/Transcript'
import { AgentStatusNotice } from '../agents/AgentStatusNotice'
import { Composer } from './Composer'
import { InlineError } from '../ui/Dialog'
import { NeedsYouLink } from '../needs-you/NeedsYouLink'
import { pendingCountOf } from '../store/needs-you'
import { PlanCards } from './PlanCards'
import { useCommand } from '../ui/useCommand'
import { own } from '../../shared/own'

/**
 * An agent's conversation: the lead's chat (the person talks to it directly) or a teammate's
 * transcript (the person writes to its inbox). Same rendering for both, live while it streams.
 */
export function Conversation({ name }: { readonly name: string }) {
  const agent = useAppStore((state) => own(state.agents, name))
  const chat = useAppStore((state) => state.chat)
  const sendMessage = useAppStore((state) => state.sendMessage)
  const queued = useAppStore((state) => pendingCountOf(state.needsYou, name))
  const isLead = name === LEAD
  if (agent === undefined) return null
  return (
    <div className="conversation">
      {queued > 0 ? <NeedsYouLink name={name} /> : <AgentStatusNotice name={name} />}
      <Transcript
        key={name}
        name={name}
        emptyHint={
          isLead
            ? 'Nothing yet. Ask the lead for something below: it plans, spawns teammates and reports back.'
            : `${name} has no transcript yet. Its first task appears here when it is spawned.`
        }
      />
      <PlanCards name={name} />
      <div className="conversation-footer">
        <WorkingStrip name={name} />
        {isLead ? (
          <Composer
            label="Message the lead"
            placeholder="Ask the lead… (Enter sends, Shift+Enter adds a line)"
            primary={{ label: 'Send', send: (text) => chat(text) }}
            takesFocusRequests
          />
        ) : (
          <Composer
            label={`Message ${name}`}
            placeholder={`Write to ${name}'s inbox… (Enter sends, Shift+Enter adds a line)`}
            primary={{
              label: `Send to ${name}`,
              send: async (text) => void (await sendMessage({ to: name, content: text })),
            }}
            takesFocusRequests
            hint={
              <>
                Goes to {name}&apos;s inbox; it wakes and reads it · <kbd>Enter</kbd> sends
              </>
            }
          />
        )}
      </div>
    </div>
  )
}

/** While the agent works: what it is doing, and Stop (ends its activation after this step). */
function WorkingStrip({ name }: { readonly name: string }) {
  const working = useAppStore((state) => own(state.agents, name)?.status === 'working')
  const tool = useAppStore((state) => currentToolName(own(state.live, name)?.tools))
  const stopAgent = useAppStore((state) => state.stopAgent)
  const stop = useCommand(stopAgent)
  if (!working && stop.error === null) return null
  const who = name === LEAD ? 'The lead' : name
  return (
    <div className="working-strip">
      {working ? (
        <>
          <span className="pulse-dot" aria-hidden="true" />
          <span className="working-text">
            {who} is working{tool ? ` · ${tool}` : '…'}
          </span>
          <button
            type="button"
            className="button button-danger button-small"
            disabled={stop.pending}
            onClick={() => void stop.run(name)}
            title="Stop (Ctrl+.)"
          >
            <span className="stop-square" aria-hidden="true" />
            {stop.pending ? 'Stopping…' : 'Stop'}
          </button>
        </>
      ) : null}
      <InlineError error={stop.error} />
    </div>
  )
}

function currentToolName(tools: readonly LiveTool[] | undefined): string | null {
  const active = tools?.filter((tool) => tool.phase !== 'finished') ?? []
  return active[active.length - 1]?.name ?? null
}
