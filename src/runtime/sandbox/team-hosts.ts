import { mkdirSync } from 'node:fs'
import { TeamError } from '../../shared/errors'
import {
  allowedHostsSchema,
  PACKAGE_REGISTRY_HOSTS,
  type SandboxView,
  teamSandboxFileSchema,
  type TeamSandboxFile,
} from '../../shared/sandbox'
import { UNTRUSTED_NOTE } from '../../shared/trust'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'
import { defaultBashSandbox } from '../tools/bash-sandbox'
import type { TrustGate } from '../trust/workspace-trust'

/** What a team's `.team/sandbox.json` says, or why it could not be used. */
export interface TeamSandboxSettings {
  readonly allowedHosts: readonly string[]
  readonly problem: string | null
}

/**
 * Reads `.team/sandbox.json`. A missing file is the default (no host allowed). A file that
 * cannot be read or parsed allows no host either, the safe side, and says why; it is never
 * overwritten silently: saving replaces it only on the person's explicit change.
 */
export function readTeamSandbox(paths: TeamPaths): TeamSandboxSettings {
  const file = paths.sandboxSettings
  let text: string | null
  try {
    text = readRegularTextSync(file, {
      what: "The team's sandbox settings",
      maxBytes: FILE_CAPS.record,
    })
  } catch (error) {
    return { allowedHosts: [], problem: error instanceof Error ? error.message : String(error) }
  }
  if (text === null) return { allowedHosts: [], problem: null }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return {
      allowedHosts: [],
      problem: `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}); no host is allowed until it is fixed or saved again from Settings.`,
    }
  }
  const parsed = teamSandboxFileSchema.safeParse(value)
  if (!parsed.success)
    return {
      allowedHosts: [],
      problem: `${file} is not valid (${describeIssues(parsed.error.issues)}); no host is allowed until it is fixed or saved again from Settings.`,
    }
  return { allowedHosts: parsed.data.allowedHosts, problem: null }
}

/** Replaces the team's allow-list (atomically); a bad host is refused with what is wrong. */
export function writeTeamSandbox(paths: TeamPaths, hosts: readonly string[]): TeamSandboxSettings {
  const parsed = allowedHostsSchema.safeParse(hosts)
  if (!parsed.success)
    throw new TeamError(
      'invalid-argument',
      `The allowed hosts were not saved: ${describeIssues(parsed.error.issues, hosts)}.`,
    )
  const file: TeamSandboxFile = { version: 1, allowedHosts: [...new Set(parsed.data)] }
  mkdirSync(paths.root, { recursive: true })
  writeFileAtomicSync(paths.sandboxSettings, `${JSON.stringify(file, null, 2)}\n`)
  return { allowedHosts: file.allowedHosts, problem: null }
}

function describeIssues(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
  hosts?: readonly string[],
): string {
  return issues
    .map((issue) => {
      const index = issue.path.at(-1)
      const host = hosts !== undefined && typeof index === 'number' ? hosts[index] : undefined
      if (host !== undefined) return `"${host}": ${issue.message}`
      return `${issue.path.map(String).join('.') || 'file'}: ${issue.message}`
    })
    .join('; ')
}

/**
 * The sandbox as the settings view shows it; `host` null: no team is open. The team's hosts
 * apply only while the person trusts the workspace, and the view says so.
 */
export async function sandboxView(
  host: { readonly team: { readonly paths: TeamPaths }; readonly trust: TrustGate } | null,
): Promise<SandboxView> {
  const status = await defaultBashSandbox.report()
  const team = host === null ? null : readTeamSandbox(host.team.paths)
  const problem =
    team === null
      ? null
      : (team.problem ??
        (team.allowedHosts.length > 0 && !host?.trust.isTrusted()
          ? `No host is allowed yet: ${UNTRUSTED_NOTE}.`
          : null))
  return {
    status,
    team: team === null ? null : { allowedHosts: [...team.allowedHosts], problem },
    preset: [...PACKAGE_REGISTRY_HOSTS],
  }
}
