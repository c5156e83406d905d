import type { WebContents } from 'electron'
import type { DesktopEvent } from '../shared/desktop'

/** The only schemes handed to the system: the web and mail. */
export const EXTERNAL_PROTOCOLS: readonly string[] = ['https:', 'http:', 'mailto:']

export type LinkDecision =
  /** The app's own page: navigation within it is allowed. */
  | { readonly kind: 'app' }
  | { readonly kind: 'external'; readonly url: string }
  | { readonly kind: 'refused'; readonly url: string; readonly reason: string }

/**
 * What to do with a link the page tries to follow (agent output is text from a model and from
 * other agents: it may carry file:, javascript: or a custom scheme that starts a program). Web
 * and mail links go to the system's browser or mail client; the app's own page stays; anything
 * else is refused, with a reason the person can read.
 */
export function decideLink(url: string, isAppUrl: (url: string) => boolean): LinkDecision {
  if (isAppUrl(url)) return { kind: 'app' }
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { kind: 'refused', url, reason: 'it is not a valid address' }
  }
  if (!EXTERNAL_PROTOCOLS.includes(parsed.protocol)) {
    return {
      kind: 'refused',
      url,
      reason: `only web (http, https) and mail links open outside the app, not ${parsed.protocol}`,
    }
  }
  // A web link with a user name in it ("https://bank.com@evil.example") hides where it goes.
  if (parsed.username !== '' || parsed.password !== '')
    return { kind: 'refused', url, reason: 'it carries a user name or password' }
  return { kind: 'external', url: parsed.href }
}

/** The notice shown in the window when a link is refused. */
export function refusedLinkNotice(decision: {
  readonly url: string
  readonly reason: string
}): DesktopEvent {
  const shown = decision.url.length > 200 ? `${decision.url.slice(0, 200)}…` : decision.url
  return {
    type: 'desktop-notice',
    tone: 'warning',
    title: 'Link not opened',
    message: `${shown} was not opened: ${decision.reason}.`,
  }
}

export interface LinkPolicyOptions {
  readonly isAppUrl: (url: string) => boolean
  /** shell.openExternal. */
  readonly openExternal: (url: string) => Promise<void>
  /** Tells this window's page (a `desktop-notice` event). */
  readonly notify: (contents: WebContents, event: DesktopEvent) => void
}

/** Follows a link the page asked for: to the system, or refused with a notice. */
export function followLink(contents: WebContents, url: string, options: LinkPolicyOptions): void {
  const decision = decideLink(url, options.isAppUrl)
  if (decision.kind === 'external') {
    options.openExternal(decision.url).catch((error: unknown) => {
      console.warn(`[links] the system could not open ${decision.url}:`, error)
      options.notify(
        contents,
        refusedLinkNotice({ url: decision.url, reason: 'the system has no program for it' }),
      )
    })
  } else if (decision.kind === 'refused') {
    console.warn(`[links] refused ${url}: ${decision.reason}`)
    options.notify(contents, refusedLinkNotice(decision))
  }
}

/**
 * Links in a window: `target=_blank` (window.open) never makes an Electron window, and a
 * navigation away from the app's page never happens in the window; both go through
 * `followLink`. This replaces security.ts's deny-all window-open handler with one that denies
 * the same way, and adds to its navigation guard (which prevents the navigation itself).
 */
export function installLinkPolicy(contents: WebContents, options: LinkPolicyOptions): void {
  contents.setWindowOpenHandler(({ url }) => {
    followLink(contents, url, options)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event, url) => {
    if (options.isAppUrl(url)) return
    event.preventDefault()
    followLink(contents, url, options)
  })
}
