import type { Session, WebContents } from 'electron'
import { isAppUrl, type AppLocation } from './app-location'

/**
 * Locks down every WebContents the app creates: no new windows, no navigation away from the
 * app's own page, no <webview>. Links the app might render later must not turn the window into
 * a browser with the preload attached.
 */
export function hardenWebContents(contents: WebContents, location: AppLocation): void {
  contents.setWindowOpenHandler(({ url }) => {
    console.warn(`[security] blocked window.open of ${url}`)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(location, url)) return
    event.preventDefault()
    console.warn(`[security] blocked navigation to ${url}`)
  })
  contents.on('will-attach-webview', (event) => {
    event.preventDefault()
  })
}

/**
 * Sends the Content-Security-Policy as a header on every HTTP response (the dev server's pages).
 * The app: protocol adds it to the built page itself (app-protocol.ts), and index.html carries
 * the same policy in a meta tag besides.
 */
export function installContentSecurityPolicy(session: Session, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] },
    })
  })
}

/**
 * The one web permission the page has: writing text to the clipboard (the Copy buttons on
 * messages and code). No camera, microphone, notifications, or reading the clipboard.
 */
const ALLOWED_PERMISSIONS: readonly string[] = ['clipboard-sanitized-write']

export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(ALLOWED_PERMISSIONS.includes(permission)),
  )
  session.setPermissionCheckHandler((_contents, permission) =>
    ALLOWED_PERMISSIONS.includes(permission),
  )
}
