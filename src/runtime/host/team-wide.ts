import type { MemberStatus } from '../../shared/roster'

/** The part of TeamHost that Stop all / Resume all need. */
export interface TeamWideHost {
  roster(): {
    lead: { name: string; status: MemberStatus }
    members: { name: string; status: MemberStatus }[]
  }
  stop(name: string): void
  resume(name: string): void
}

/**
 * Statuses Stop ends: an activation, a retry wait, a stall, a wait for the person (as the
 * roster's Stop button).
 */
const STOPPABLE: ReadonlySet<MemberStatus> = new Set([
  'working',
  'waiting',
  'stalled',
  'waiting-for-you',
])
/** Statuses Resume lifts: a pause, a stall, an error (as the roster's Resume button). */
const RESUMABLE: ReadonlySet<MemberStatus> = new Set(['waiting', 'stalled', 'error'])

function agentsWith(host: TeamWideHost, statuses: ReadonlySet<MemberStatus>): string[] {
  const { lead, members } = host.roster()
  return [lead, ...members].filter((agent) => statuses.has(agent.status)).map(({ name }) => name)
}

/** Stops every agent that works, waits or stalls; returns how many were asked to stop. */
export function stopAll(host: TeamWideHost): number {
  const names = agentsWith(host, STOPPABLE)
  for (const name of names) host.stop(name)
  return names.length
}

/** Resumes every agent that waits, stalled or failed; a shut-down or idle one stays as it is. */
export function resumeAll(host: TeamWideHost): number {
  const names = agentsWith(host, RESUMABLE)
  for (const name of names) host.resume(name)
  return names.length
}
