/** The parts of `window.location` and `window.history` used to clean the address. */
export interface AddressLike {
  readonly href: string
}
export interface HistoryLike {
  readonly state: unknown
  replaceState(data: unknown, unused: string, url?: string): void
}

/**
 * Takes the launch's `?token=` out of the address bar (and so out of the history, bookmarks and
 * screenshots) once the page has loaded with it. Reload still works: the server set the token
 * cookie with this page, and the page and its socket then authenticate with the cookie alone.
 * Returns whether there was a token to remove.
 */
export function removeTokenFromAddress(location: AddressLike, history: HistoryLike): boolean {
  const url = new URL(location.href)
  if (!url.searchParams.has('token')) return false
  url.searchParams.delete('token')
  history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`)
  return true
}
