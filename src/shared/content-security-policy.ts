/**
 * The renderer's Content-Security-Policy, declared once. Main sends it as a response header and
 * src/renderer/index.html carries the same text in a meta tag; the renderer build fails when
 * the two differ (see electron.vite.config.ts).
 */
export const productionContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')

/**
 * The policy under `electron-vite dev` only: the React Refresh preamble is an inline script, Vite
 * injects CSS as <style> elements, and hot reload talks over a WebSocket to the dev server.
 */
export const developmentContentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self' ws://localhost:* ws://127.0.0.1:*",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ')
