import type { Notice, NoticeTone, TeamData } from './state'

/** The most notices kept at once: older ones give way (each is still dismissible). */
export const MAX_NOTICES = 5

/** Information goes by itself after this long; warnings and errors wait to be dismissed. */
export const TRANSIENT_NOTICE_MS = 6000

export function isTransient(tone: NoticeTone): boolean {
  return tone === 'info'
}

/**
 * Adds a notice. One with a `group` already shown replaces it, counting both and moving to the
 * end: twenty rejected lines in one inbox are one notice saying 20, not twenty banners.
 */
export function addNotice(state: TeamData, notice: Omit<Notice, 'id' | 'count'>): TeamData {
  const same =
    notice.group === undefined ? undefined : state.notices.find((n) => n.group === notice.group)
  const added: Notice = {
    ...notice,
    id: state.nextNoticeId,
    count: (same?.count ?? (same ? 1 : 0)) + 1,
  }
  const others = same ? state.notices.filter((n) => n !== same) : state.notices
  return {
    ...state,
    notices: [...others, added].slice(-MAX_NOTICES),
    nextNoticeId: state.nextNoticeId + 1,
  }
}

export function dismissNotice(state: TeamData, id: number): TeamData {
  return { ...state, notices: state.notices.filter((notice) => notice.id !== id) }
}
