import { useAppStore } from '../store/context'
import type { AgentState } from '../store/state'
import { canResume, canStop, resumeLabel, resumeTitle } from './agent-actions'

/**
 * Where Stop and Resume are drawn, and how. The roster's row keeps Stop in its place whatever
 * the status (disabled when there is nothing to stop), so that a second click lands on Stop and
 * never on a button that took its place; Resume comes after it. The agent's header offers Stop
 * for a wait or a stall only, as Stop while it works sits by the message box where the work
 * shows, and puts Resume first.
 */
const PLACES = {
  roster: {
    stopClass: 'link-button link-danger',
    resumeClass: 'link-button link-resume',
    stopFirst: true,
    keepStop: true,
  },
  header: {
    stopClass: 'button button-danger button-small',
    resumeClass: 'button button-primary button-small',
    stopFirst: false,
    keepStop: false,
  },
} as const

/** One agent's Stop and Resume (Retry for a stall); a failure goes to the notifications. */
export function StopResume({
  agent,
  place,
}: {
  readonly agent: AgentState
  readonly place: keyof typeof PLACES
}) {
  const stopAgent = useAppStore((state) => state.stopAgent)
  const resumeAgent = useAppStore((state) => state.resumeAgent)
  const reportFailure = useAppStore((state) => state.reportFailure)
  const look = PLACES[place]
  const name = agent.name
  const stoppable = canStop(agent.status)
  const stop =
    look.keepStop || (stoppable && agent.status !== 'working') ? (
      <button
        type="button"
        className={look.stopClass}
        disabled={look.keepStop ? !stoppable : undefined}
        title={stopTitle(name, stoppable, place)}
        onClick={() =>
          stopAgent(name).catch((error: unknown) => reportFailure(`Could not stop ${name}`, error))
        }
      >
        Stop
      </button>
    ) : null
  const resume = canResume(agent) ? (
    <button
      type="button"
      className={look.resumeClass}
      title={resumeTitle(name, agent.status)}
      onClick={() =>
        resumeAgent(name).catch((error: unknown) =>
          reportFailure(`Could not resume ${name}`, error),
        )
      }
    >
      {resumeLabel(agent.status)}
    </button>
  ) : null
  return look.stopFirst ? (
    <>
      {stop}
      {resume}
    </>
  ) : (
    <>
      {resume}
      {stop}
    </>
  )
}

function stopTitle(name: string, stoppable: boolean, place: keyof typeof PLACES): string {
  if (place === 'header') return `Stop ${name}: it ends this activation; a new message wakes it`
  return stoppable ? `Stop ${name}'s current step` : `${name} is not working: nothing to stop`
}
