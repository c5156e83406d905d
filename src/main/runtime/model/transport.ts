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
 * A transport for model requests. The proxy variables are read from `env` once, here: a proxy
 * set later takes effect with the next transport (the host makes a client per endpoint setting).
 */
export function createTransport(env: NodeJS.ProcessEnv = process.env): Transport {
  const tls = { ca: trustedCertificates() }
  const dispatcher = new EnvHttpProxyAgent({
    // Empty strings, not undefined: undici would otherwise fall back to process.env itself.
    httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
    httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
    noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
    connect: tls,
    requestTls: tls,
    proxyTls: tls,
  })
  return {
    fetch: undiciFetch as unknown as Transport['fetch'],
    fetchOptions: { dispatcher } as unknown as Transport['fetchOptions'],
    dispatcher,
  }
}
