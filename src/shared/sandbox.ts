import { z } from 'zod'

/**
 * bash's OS sandbox, as the runtime and the UI both see it: whether it is in force on this
 * machine, the team's network allow-list, and what a sandboxed command was stopped from doing.
 */

/** Whether commands run sandboxed here, and why not when they do not. */
export const sandboxStatusSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    /** What enforces it: bubblewrap on Linux, Seatbelt on macOS. */
    mechanism: z.enum(['bubblewrap', 'seatbelt']),
  }),
  z.object({
    available: z.literal(false),
    /** For the person: what is missing and what to do. */
    reason: z.string(),
  }),
])
export type SandboxStatus = z.infer<typeof sandboxStatusSchema>

/**
 * A host a sandboxed command may connect to: a name (`registry.npmjs.org`), a wildcard for its
 * subdomains (`*.example.com`), or an IPv4 address, each with an optional `:port`. The same
 * grammar the sandbox runtime's allow-lists take, narrowed to what a person types.
 */
export const allowedHostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[1-9][0-9]{0,4})?$/,
    'a host is a name such as registry.npmjs.org or *.example.com, with an optional :port',
  )
  .refine((host) => {
    const port = host.split(':')[1]
    return port === undefined || Number(port) <= 65_535
  }, 'a port is at most 65535')

export const MAX_ALLOWED_HOSTS = 200
export const allowedHostsSchema = z.array(allowedHostSchema).max(MAX_ALLOWED_HOSTS)

/** The one-click preset: the common package registries, so installs work and nothing else. */
export const PACKAGE_REGISTRY_HOSTS: readonly string[] = [
  'registry.npmjs.org',
  'registry.yarnpkg.com',
  'pypi.org',
  'files.pythonhosted.org',
  'crates.io',
  'static.crates.io',
  'index.crates.io',
  'proxy.golang.org',
  'sum.golang.org',
  'rubygems.org',
  'repo.maven.apache.org',
  'repo1.maven.org',
]

/** `.team/sandbox.json`: the team's own sandbox settings, version 1. */
export const teamSandboxFileSchema = z.object({
  version: z.literal(1),
  allowedHosts: allowedHostsSchema,
})
export type TeamSandboxFile = z.infer<typeof teamSandboxFileSchema>

/** What the settings view shows of the sandbox: this machine's, and the open team's list. */
export const sandboxViewSchema = z.object({
  status: sandboxStatusSchema,
  /** null: no team is open. */
  team: z
    .object({
      allowedHosts: z.array(z.string()),
      /** Why `.team/sandbox.json` was not used (no host is allowed meanwhile), or null. */
      problem: z.string().nullable(),
    })
    .nullable(),
  preset: z.array(z.string()),
})
export type SandboxView = z.infer<typeof sandboxViewSchema>

/**
 * Something a sandboxed command tried and was stopped from doing. Reported to the runtime's
 * hook (the "Needs you" queue asks the person whether to allow it) and noted to the model.
 */
export type BlockedAction =
  | {
      readonly kind: 'blocked-write'
      /** As the command's error named it: absolute, or relative to the workspace. */
      readonly path: string
      readonly command: string
    }
  | {
      readonly kind: 'blocked-network'
      readonly host: string
      readonly port: number | null
      readonly command: string
    }
