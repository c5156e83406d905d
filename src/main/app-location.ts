import { pathToFileURL } from 'node:url'

/**
 * Where the renderer's page comes from: the electron-vite dev server, or the built index.html.
 * Every trust decision (IPC senders, navigation) compares against this one value.
 */
export type AppLocation =
  | { readonly kind: 'dev-server'; readonly url: string }
  | { readonly kind: 'file'; readonly url: string }

export function devServerLocation(url: string): AppLocation {
  return { kind: 'dev-server', url }
}

export function fileLocation(indexHtmlPath: string): AppLocation {
  return { kind: 'file', url: pathToFileURL(indexHtmlPath).href }
}

/** Whether `candidate` is a page of the app itself (query and fragment do not matter). */
export function isAppUrl(location: AppLocation, candidate: string): boolean {
  const url = parseUrl(candidate)
  if (url === undefined) return false
  const app = new URL(location.url)
  switch (location.kind) {
    case 'dev-server':
      return url.origin === app.origin
    case 'file':
      // file: URLs all share the opaque origin "null", so the exact file is what identifies the app.
      return url.protocol === 'file:' && url.host === app.host && url.pathname === app.pathname
  }
}

function parseUrl(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}
