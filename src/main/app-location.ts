import { APP_HOST, APP_INDEX_URL, APP_SCHEME } from './app-protocol'

/**
 * Where the renderer's page comes from: the electron-vite dev server, or the built page served
 * on the app's own protocol (app://agent-teams/index.html). Every trust decision (IPC senders,
 * navigation) compares against this one value.
 */
export type AppLocation =
  | { readonly kind: 'dev-server'; readonly url: string }
  | { readonly kind: 'app-protocol'; readonly url: string }

export function devServerLocation(url: string): AppLocation {
  return { kind: 'dev-server', url }
}

export function appProtocolLocation(): AppLocation {
  return { kind: 'app-protocol', url: APP_INDEX_URL }
}

/** Whether `candidate` is a page of the app itself: the same origin as the app's page. */
export function isAppUrl(location: AppLocation, candidate: string): boolean {
  const url = parseUrl(candidate)
  if (url === undefined) return false
  switch (location.kind) {
    case 'dev-server':
      return url.origin === new URL(location.url).origin
    case 'app-protocol':
      // Node's URL does not know that Electron made app: a standard scheme, so it gives such a
      // URL the opaque origin "null": compare the scheme, host and port that make the origin.
      return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST && url.port === ''
  }
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}
