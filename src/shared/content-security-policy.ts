/**
 * The exact `style="…"` attribute values the diff component (@git-diff-view/core) writes into
 * its highlighted HTML (the word-level highlight of a changed line, and the empty style of a
 * syntax span), as CSP hashes: with 'unsafe-hashes' these and only these inline styles apply.
 * tests/unit/shared/content-security-policy.test.ts recomputes them from the installed library.
 */
export const diffViewStyleAttributeHashes = [
  "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
  "'sha256-b0tCRc6ngR42WzWyF/cAvmuKK7Mj4/vXH6sue4zHHJM='",
  "'sha256-Yub2llkvfCkVWTQlAaiAoN75/GZ3M7UqPorejLVOJhw='",
  "'sha256-qEZml1rSASVS+rDUZcKCjaYGuXaUcOKPxlMyjFRQYeI='",
  "'sha256-hhmWOU016YygqfoqWSQtJLnzo0K8YTg6sdh2hubHhRE='",
  "'sha256-bSZK12EqERZdULGnYEhwHHulNbvV/NifqmmdJBQ0GHw='",
  "'sha256-sHuz6ZBUml5qyxQwxwkYuSAa2wUaRBhkcWxbaRaoUNs='",
  "'sha256-gsDtTDhomWaNgtI/daolYE9o4YBw03jlUQQ2nwQ6dRw='",
  "'sha256-U34NNjZu7GoeACDK3aZROhvhFnjXiruJA7Lt6UbJOvw='",
  "'sha256-bL6u+a+aQ9KqKPMfEl2upruERWyvUzBCNISlOS0hI20='",
  "'sha256-tvPk0QO4W+E2Xhf7bbsI8W2ia2RuSVZG8io295R6U0w='",
  "'sha256-gZONYVtb+KEa2+KgRwAhBjHMvvIVTxjnwtMblpzWpvw='",
  "'sha256-glyPIREV59yQkiN+rmlebpWcF/dnqOrSAFxo9bN5ias='",
  "'sha256-lrHoTLmUrTKoE7KRZZbT0BpERsI2UItKbb9hZUHTkDs='",
  "'sha256-XHgNmqeplROZrYB5lI+YxJb6FVrqTTH8z8WuqrfvWFk='",
  "'sha256-mXmlyXbdfqMi1PszhVLIStA/jUaefcGmiexAA/RR204='",
  "'sha256-p6xGTM7GKC7FGR14GXMlvguqcKhuyaP3ATis2ZoGmD8='",
]

/**
 * The one inline script of src/renderer/index.html, which must run before the first paint (it
 * says why), as a CSP hash: no other inline script runs. The renderer build fails, and
 * tests/unit/shared/content-security-policy.test.ts too, when the script and its hash differ.
 */
export const firstPaintScriptHash = "'sha256-j3cWo0JNLBH4V5NAoa1wPL/8mdCdxOGMuseo1GeHTVI='"

/**
 * The renderer's Content-Security-Policy, declared once. Main sends it as a response header and
 * src/renderer/index.html carries the same text in a meta tag; the renderer build fails when
 * the two differ (see electron.vite.config.ts).
 */
export const productionContentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' ${firstPaintScriptHash}`,
  "style-src 'self'",
  `style-src-attr 'unsafe-hashes' ${diffViewStyleAttributeHashes.join(' ')}`,
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

/** index.html's meta tag stating the policy; its content is the first group. */
export const policyMetaTag =
  /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i
