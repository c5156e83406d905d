import type { AgentState } from '../store/state'

/** The agent's permission profile and, when it is not auto, what waits for the person. */
export function RosterProfile({ agent }: { readonly agent: AgentState }) {
  if (agent.profile === null) return null
  const approval =
    agent.approval === null || agent.approval === 'auto' ? '' : ` · ${agent.approval}`
  return (
    <span
      className="roster-profile"
      data-testid={`profile-${agent.name}`}
      title={`Permission profile ${agent.profile}; approvals ${agent.approval ?? 'as the profile says'}`}
    >
      {agent.profile}
      {approval}
    </span>
  )
}
