import { readFile } from 'node:fs/promises'
import type { Protocol } from 'electron'
import { productionContentSecurityPolicy } from '../shared/content-security-policy'
import { lookupStaticFile } from '../server/static-files'

/**
 * The built page is served from `app://agent-teams/` instead of file://. A standard, secure
 * scheme gives the page a real origin (file: pages all share the opaque "null" one), so the
 * IPC sender check and navigation checks compare origins, fetch and CSP 'self' behave as on
 * the web, and the page cannot read other files from disk the way a file: page can.
 */
export const APP_SCHEME = 'app'
export const APP_HOST = 'agent-teams'
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`

export type AppRequestTarget =
  | { readonly kind: 'path'; readonly path: string }
  | { readonly kind: 'refused'; readonly status: 400 | 403 | 405; readonly reason: string }

/**
 * The URL path an app: request asks for, or why it is refused before any file is looked at:
 * a method other than GET or HEAD, or another origin than the app's own.
 */
export function appRequestPath(method: string, requestUrl: string): AppRequestTarget {
  if (method !== 'GET' && method !== 'HEAD') {
    return { kind: 'refused', status: 405, reason: `${method} is not allowed` }
  }
  let url: URL
  try {
    url = new URL(requestUrl)
  } catch {
    return { kind: 'refused', status: 400, reason: 'not a URL' }
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) {
    return { kind: 'refused', status: 403, reason: 'another origin' }
  }
  // The URL parser has already folded `..` and `%2e%2e`; what is still escaped (`%2f`, `%5c`,
  // `%00`) is decoded and refused by the static lookup.
  return { kind: 'path', path: url.pathname === '' ? '/' : url.pathname }
}

/** The response headers for a file of the page; HTML carries the policy main enforces. */
export function responseHeaders(file: { contentType: string; cacheControl: string }): Headers {
  const headers = new Headers({
    'Content-Type': file.contentType,
    'Cache-Control': file.cacheControl,
    'X-Content-Type-Options': 'nosniff',
  })
  if (file.contentType.startsWith('text/html')) {
    headers.set('Content-Security-Policy', productionContentSecurityPolicy)
  }
  return headers
}

/** Must run before the app is ready: Chromium fixes the schemes' privileges at start. */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ])
}

/** Serves the files under `root` (out/renderer) on app://agent-teams/, and nothing else. */
export function serveAppProtocol(protocol: Protocol, root: string): void {
  protocol.handle(APP_SCHEME, (request) => respond(root, request.method, request.url))
}

/**
 * The answer to one app: request. Files are found by the same lookup browser mode serves the
 * page with (src/server/static-files.ts): each segment decoded, `..` in any spelling, `\\`
 * and NUL refused, symbolic links that lead out of `root` refused, folders never listed.
 */
export async function respond(root: string, method: string, requestUrl: string): Promise<Response> {
  const target = appRequestPath(method, requestUrl)
  if (target.kind === 'refused') return refusal(target.status, target.reason, requestUrl)
  const file = await lookupStaticFile(root, target.path)
  if (file.kind === 'bad-path') return refusal(403, 'a path that leaves the app folder', requestUrl)
  if (file.kind === 'not-found') return refusal(404, 'not found', requestUrl)
  let body: Uint8Array | null = null
  try {
    if (method !== 'HEAD') body = new Uint8Array(await readFile(file.path))
  } catch {
    // Removed between the lookup and the read (a rebuild under a running app).
    return refusal(404, 'not found', requestUrl)
  }
  return new Response(body, { status: 200, headers: responseHeaders(file) })
}

function refusal(status: number, reason: string, requestUrl: string): Response {
  console.warn(`[app-protocol] ${status} for ${requestUrl}: ${reason}`)
  return new Response(reason, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
