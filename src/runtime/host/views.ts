import type { InboxEntryView } from '../../shared/contract'
import type { ProfileView } from '../../shared/profiles'
import type { InboxEntry } from '../mailbox/mailbox'
import type { ProfileStore } from '../permissions/profile-store'

/** An inbox line as the UI shows it. */
export function toInboxEntryView(entry: InboxEntry): InboxEntryView {
  const message = entry.message
  return {
    position: entry.position,
    state: entry.state,
    id: message?.id ?? null,
    type: message?.type ?? null,
    from: message?.from ?? null,
    content:
      message?.content ??
      (entry.rawBase64 ? Buffer.from(entry.rawBase64, 'base64').toString('utf8') : null),
    timestamp: message?.timestamp ?? null,
    reason: entry.reason ?? null,
  }
}

/** Every profile the team can use, and why its profiles file cannot be used (or null). */
export function profilesView(host: { profiles: ProfileStore }): {
  profiles: ProfileView[]
  problem: string | null
} {
  return { profiles: host.profiles.list(), problem: host.profiles.problem() }
}
