import type { Notice, TeamData } from './state'

/** The most banners kept at once: older ones give way (each is still dismissible). */
export const MAX_NOTICES = 5

export function addNotice(state: TeamData, notice: Omit<Notice, 'id'>): TeamData {
  const added: Notice = { ...notice, id: state.nextNoticeId }
  return {
    ...state,
    notices: [...state.notices, added].slice(-MAX_NOTICES),
    nextNoticeId: state.nextNoticeId + 1,
  }
}

export function dismissNotice(state: TeamData, id: number): TeamData {
  return { ...state, notices: state.notices.filter((notice) => notice.id !== id) }
}
