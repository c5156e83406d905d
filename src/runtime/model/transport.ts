/**
 * How the model client reaches its endpoint: undici's fetch over one `EnvHttpProxyAgent`.
 *
 * The agent reads `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (either case) when it is made, so a
 * desktop launch behind a company proxy reaches the endpoint as a shell launch would. It trusts
 * the system's certificates as well as Node's bundled ones: a proxy that inspects TLS presents a
 * certificate signed by a company authority installed in the system store, never in Node's list.
 * We read the system store with `tls.getCACertificates('system')` rather than relying on the
 * `--use-system-ca` flag, because the flag has to be on the command line of every way the app
 * starts (Electron, the CLI, tsx), while this works wherever the client is made.
 *
 * undici's own `fetch` goes with its dispatcher: Node 24's global fetch bundles undici 7, which
 * refuses an undici 8 dispatcher ("invalid onRequestStart method").
 */
import { getCACertificates } from 'node:tls'
import { EnvHttpProxyAgent, fetch as undiciFetch } from 'undici'

import type { ClientOptions } from '@anthropic-ai/sdk'

/** The SDK options that route its requests: undici's fetch and the proxy-aware dispatcher. */
export interface Transport {
  readonly fetch: NonNullable<ClientOptions['fetch']>
  readonly fetchOptions: NonNullable<ClientOptions['fetchOptions']>
  readonly dispatcher: EnvHttpProxyAgent
  /** Why no request can be sent (a proxy variable that is not a URL), or null. */
  readonly problem: string | null
}

/** A model request that cannot be sent as the settings stand: retrying will not help. */
export class TransportSettingError extends Error {
  override readonly name = 'TransportSettingError'
}

/** Node's bundled authorities and the system's, without duplicates. */
export function trustedCertificates(): string[] {
  return [...new Set([...readCertificates('default'), ...readCertificates('system')])]
}

function readCertificates(store: 'default' | 'system'): string[] {
  try {
    return getCACertificates(store)
  } catch {
    // No readable system store on this platform: Node's own list still applies.
    return []
  }
}

/**
 * A transport for model requests, reading the proxy variables from `env` once, here (the model
 * client shares one transport per process, so a proxy set later applies after a restart).
 *
 * A proxy variable that is not a URL does not stop the app: the transport goes direct and
 * names the problem, and the model client refuses every request with it (the agent shows it).
 */
export function createTransport(env: NodeJS.ProcessEnv = process.env): Transport {
  const proxies = {
    // Empty strings, not undefined: undici would otherwise fall back to process.env itself.
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
  }
  const tls = { ca: trustedCertificates() }
  const problem = proxyProblem(proxies)
  const dispatcher = new EnvHttpProxyAgent({
    ...(problem === null ? proxies : { httpProxy: '', httpsProxy: '', noProxy: '' }),
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
  })
  return {
    fetch: undiciFetch as unknown as Transport['fetch'],
    fetchOptions: { dispatcher } as unknown as Transport['fetchOptions'],
    dispatcher,
    problem,
  }
}

/** What undici's proxy agent can speak to. */
const PROXY_PROTOCOLS = new Set(['http:', 'https:', 'socks5:'])

function proxyProblem(proxies: { httpProxy: string; httpsProxy: string }): string | null {
  for (const [name, value] of [
    ['HTTP_PROXY', proxies.httpProxy],
    ['HTTPS_PROXY', proxies.httpsProxy],
  ] as const) {
    if (value === '' || PROXY_PROTOCOLS.has(URL.parse(value)?.protocol ?? '')) continue
    return `The proxy setting ${name}=${JSON.stringify(value)} is not a URL (for example http://proxy.example:3128); fix or unset it and restart.`
  }
  return null
}
