import { createHash } from 'node:crypto'
import type { NamedValue, ShownValue } from '../../shared/trust'

/** A variable or field name that usually holds a secret. */
const SECRET_NAME =
  /(^|_)(TOKEN|KEY)$|SECRET|PASSWORD|PASSWD|CREDENTIAL|^AUTHORIZATION$|^COOKIE$|API[_-]?KEY/i

/** A URL query parameter that usually holds a secret. */
const SECRET_PARAMETER = /token|key|secret|password|passwd|auth|signature|^sig$/i

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-[^}]*)?\}/g

/** Literals shaped like the keys of common services, and long random-looking runs. */
const KEY_LIKE: readonly RegExp[] = [
  /sk-ant-[A-Za-z0-9_-]{8,}/,
  /\bsk-[A-Za-z0-9_-]{20,}/,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/,
  /\bAKIA[0-9A-Z]{16}\b/,
  /\bAIza[0-9A-Za-z_-]{30,}/,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
]
/** A run of 24 or more letters and digits with no separator, as random tokens are. */
const LONG_RUN = /[A-Za-z0-9+=]{24,}/g

/** What `maskedEnvironment` puts in place of a secret value. */
const STAND_IN = /‹[A-Za-z_][A-Za-z0-9_]*: \d+ characters, sha256 [0-9a-f]{8}›/

/** Whether `name` (an env variable, a header) is one a secret is usually given under. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name)
}

/** Whether the text names a secret-looking variable: `${ANTHROPIC_API_KEY}`, `${GH_TOKEN}`. */
export function referencesSecret(text: string): boolean {
  for (const match of text.matchAll(REFERENCE)) if (isSecretName(match[1] ?? '')) return true
  return false
}

/** Whether the text holds something shaped like a key (a literal, not a reference). */
export function holdsKeyLike(text: string): boolean {
  if (KEY_LIKE.some((pattern) => pattern.test(text))) return true
  // Mixing at least two of upper case, lower case and digits: a word or a path is not flagged.
  for (const match of text.matchAll(LONG_RUN)) {
    const run = match[0].replace(/[+/=]/g, '')
    const classes = [/[A-Z]/, /[a-z]/, /[0-9]/].filter((pattern) => pattern.test(run)).length
    if (run.length >= 24 && classes >= 2) return true
  }
  return false
}

/** Whether a URL's query or user part carries a secret by its parameter names. */
function urlCarriesSecret(text: string): boolean {
  let address: URL
  try {
    address = new URL(text)
  } catch {
    return false
  }
  if (address.password !== '') return true
  for (const name of address.searchParams.keys()) if (SECRET_PARAMETER.test(name)) return true
  return false
}

/** A value shown to the person, marked when it is (or may carry) a secret. */
export function shown(
  written: string,
  expanded: string,
  options: { url?: boolean } = {},
): ShownValue {
  const secret =
    STAND_IN.test(expanded) ||
    referencesSecret(written) ||
    holdsKeyLike(written) ||
    holdsKeyLike(expanded) ||
    (options.url === true && (urlCarriesSecret(written) || urlCarriesSecret(expanded)))
  return { written, expanded, secret }
}

/** A named value (an env variable, a header), marked by its name too. */
export function shownNamed(name: string, written: string, expanded: string): NamedValue {
  const value = shown(written, expanded)
  return { name, ...value, secret: value.secret || isSecretName(name) }
}

/**
 * The environment as the trust question shows it: a variable with a secret-looking name, or a
 * key-like value, stands for `‹VAR: N characters, sha256 0123abcd›`, so that the question says
 * that the key goes to the server, and whether it changed, without printing the key itself on a
 * screen or a terminal's scrollback. Values as they run are never sent to the window.
 */
export function maskedEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const masked: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue
    masked[name] =
      value !== '' && (isSecretName(name) || holdsKeyLike(value))
        ? secretStandIn(name, value)
        : value
  }
  return masked
}

function secretStandIn(name: string, value: string): string {
  const digest = createHash('sha256').update(value).digest('hex').slice(0, 8)
  return `‹${name}: ${value.length} characters, sha256 ${digest}›`
}
