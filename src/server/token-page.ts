import { createHash } from 'node:crypto'

/**
 * The page a browser gets for an address without a valid token: the app's colours and icon and
 * what to do, instead of a line of plain text. It is served with a policy of its own that allows
 * exactly its one inline style (by hash) and the icon as a data: URI, and nothing else.
 */

/** The app's icon (src/renderer/public/favicon.svg, which a test keeps equal). */
export const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="4" y="4" width="56" height="56" rx="14" fill="#1c202a"/><path d="M28 29 22 38M36 29l6 9" stroke="#4a5573" stroke-width="3" stroke-linecap="round"/><circle cx="32" cy="23" r="7" fill="#7aa2f7"/><circle cx="19" cy="42" r="6" fill="#5fd49c"/><circle cx="45" cy="42" r="6" fill="#5fd49c"/></svg>`

const ICON_URI = `data:image/svg+xml,${encodeURIComponent(ICON)}`

const STYLE = `
:root { color-scheme: dark; }
body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #0d0f13;
  color: #e5e8ee; font: 14px/1.55 system-ui, -apple-system, 'Segoe UI', sans-serif; }
main { max-width: 30rem; padding: 28px 32px; border: 1px solid #262b36; border-radius: 10px;
  background: #13161c; }
img { width: 40px; height: 40px; }
h1 { margin: 12px 0 8px; font-size: 18px; }
p { margin: 8px 0; color: #9aa3b3; }
code { padding: 1px 5px; border-radius: 4px; background: #20252f; color: #e5e8ee;
  font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12.5px; }
`

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64')

export const TOKEN_PAGE_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

export const TOKEN_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/svg+xml" href="${ICON_URI}">
<title>Agent Teams: this address needs its token</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<img src="${ICON_URI}" alt="">
<h1>This address is not valid (any more)</h1>
<p>An Agent Teams server is running here, but this page's address does not carry its token. A
server started again has a new token, so an old tab or bookmark stops working.</p>
<p>Open the full address that <code>agent-teams serve</code> printed when it started (it ends in
<code>?token=…</code>). If you no longer have it, stop the server and start it again: it prints a new one.</p>
</main>
</body>
</html>
`

/** Whether a refused request is a page load (show the page) rather than a script or a tool. */
export function wantsPage(accept: string | undefined): boolean {
  return accept !== undefined && /\btext\/html\b/.test(accept)
}
