import type { HostEvent } from '../../shared/contract'

/** The events that mean the team wrote records the timeline is made of. */
const RECORD_EVENTS: ReadonlySet<HostEvent['type']> = new Set<HostEvent['type']>([
  'workspace-opened',
  'transcript-appended',
  'tasks-changed',
  'message-sent',
  'message-delivered',
  'message-rejected',
  'needs-you-changed',
  'branches-changed',
  'agent-status-changed',
])

export function addsTimelineRecords(event: HostEvent): boolean {
  return RECORD_EVENTS.has(event.type)
}
