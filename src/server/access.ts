import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/**
 * The cookie that carries the token after the page was opened with `?token=`, named by the
 * server's port. Browsers ignore ports when they send cookies, so every service on 127.0.0.1
 * receives it; the port in the name keeps two servers from overwriting each other's token, and
 * a service on another port finds no cookie of its own name. (HttpOnly keeps it from scripts,
 * SameSite=Strict from other sites' requests.)
 */
export function tokenCookieName(port: number): string {
  return `agent_teams_${port}`
}

/** A fresh per-launch secret: 32 random bytes, base64url (43 characters). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Compares in constant time, so the answer's timing says nothing about how much matched. */
export function tokensEqual(expected: string, given: string): boolean {
  const expectedBytes = Buffer.from(expected, 'utf8')
  const givenBytes = Buffer.from(given, 'utf8')
  // timingSafeEqual needs equal lengths; comparing against itself keeps the work the same.
  if (givenBytes.length !== expectedBytes.length) {
    timingSafeEqual(expectedBytes, expectedBytes)
    return false
  }
  return timingSafeEqual(expectedBytes, givenBytes)
}

/** The request target split into its path and its `token` query parameter, if any. */
export function splitTarget(target: string): { path: string; queryToken: string | null } {
  const question = target.indexOf('?')
  if (question === -1) return { path: target, queryToken: null }
  const query = new URLSearchParams(target.slice(question + 1))
  return { path: target.slice(0, question), queryToken: query.get('token') }
}

function cookieToken(request: IncomingMessage, port: number): string | null {
  const header = request.headers.cookie
  if (header === undefined) return null
  for (const part of header.split(';')) {
    const equals = part.indexOf('=')
    if (equals === -1) continue
    if (part.slice(0, equals).trim() !== tokenCookieName(port)) continue
    try {
      return decodeURIComponent(part.slice(equals + 1).trim())
    } catch {
      return null
    }
  }
  return null
}

export type Authorization = 'query' | 'cookie' | 'refused'

/**
 * How the request proved it knows the token. A `?token=` in the URL, when present, decides on
 * its own (a wrong one is refused even beside a good cookie); otherwise the cookie does.
 */
export function authorize(request: IncomingMessage, token: string, port: number): Authorization {
  const { queryToken } = splitTarget(request.url ?? '/')
  if (queryToken !== null) return tokensEqual(token, queryToken) ? 'query' : 'refused'
  const fromCookie = cookieToken(request, port)
  if (fromCookie !== null && tokensEqual(token, fromCookie)) return 'cookie'
  return 'refused'
}

export function tokenCookie(token: string, port: number): string {
  return `${tokenCookieName(port)}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`
}

/**
 * Whether the Host header names this server itself. Anything else (a DNS-rebinding name that
 * resolves to 127.0.0.1, another port) is refused before the token is even looked at.
 */
export function isOwnHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

/**
 * Whether an Origin is this server's own page. Browsers send one with every WebSocket and with
 * every request that is not a GET or HEAD, so a page on another site (or another port) that
 * makes the browser post here is told apart from our own.
 */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  return origin === `http://127.0.0.1:${port}` || origin === `http://localhost:${port}`
}
