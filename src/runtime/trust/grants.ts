import type {
  CheckGrant,
  ScheduleGrant,
  HostGrant,
  McpServerGrant,
  ProfileGrant,
  RuleGrant,
  WorkspaceGrants,
} from '../../shared/trust'
import { readMcpConfiguration, type ConfiguredServer } from '../mcp/config'
import { needsYouPath, readNeedsYou } from '../needs-you/store'
import { profilesPath, readProfiles } from '../permissions/profile-store'
import { readTeamSandbox } from '../sandbox/team-hosts'
import { readReactionsConfig } from '../reactions/config-file'
import { readSchedules } from '../schedules/schedule-file'
import { describeCaps, describeWhen } from '../../shared/schedules'
import type { TeamPaths } from '../team/paths'
import { candidatePaths, namedFiles, type ServerTexts } from './script-files'
import { maskedEnvironment, shown, shownNamed } from './secret-marks'

/** The grants as read now, what could not be read, and every path they were read from. */
export interface GrantsReading {
  readonly grants: WorkspaceGrants
  readonly problems: string[]
  /** The files whose change may change the grants: the grant files and the named paths. */
  readonly inputs: string[]
}

/** The files that hold grants, beside the paths the servers name. */
export function grantFiles(paths: TeamPaths): string[] {
  return [
    paths.workspaceMcpServers,
    paths.mcpServers,
    paths.sandboxSettings,
    needsYouPath(paths),
    profilesPath(paths),
    paths.reactionsConfig,
    paths.schedules,
  ]
}

/**
 * Reads everything in a workspace that widens its agents' rights. A file that cannot be read
 * grants nothing (what it holds does not apply either) and is reported in `problems`.
 */
export function readGrants(paths: TeamPaths, env: NodeJS.ProcessEnv): GrantsReading {
  const problems: string[] = []
  const configuration = readMcpConfiguration(paths, env)
  problems.push(...configuration.problems)
  // Shown with secret values stood in for: the question says a key goes along, never the key.
  const shownConfiguration = readMcpConfiguration(paths, maskedEnvironment(env))
  const servers = shownConfiguration.servers.flatMap((server) =>
    serverGrant(server, paths.workspace),
  )
  const texts = stdioTexts(configuration.servers)
  const files = namedFiles(paths.workspace, texts).map((file) => ({
    key: `file:${file.path}`,
    ...file,
  }))
  const sandbox = readTeamSandbox(paths)
  if (sandbox.problem !== null) problems.push(sandbox.problem)
  const allowedHosts: HostGrant[] = [...new Set(sandbox.allowedHosts)]
    .sort()
    .map((host) => ({ key: `host:${host}`, host }))
  const schedules = readScheduleGrants(paths, problems)
  return {
    grants: {
      mcpServers: servers,
      files,
      allowedHosts,
      approveAlways: readRules(paths, problems),
      profiles: readProfileGrants(paths, problems),
      checks: readCheckGrants(paths, problems),
      // Only when there are some: a workspace without schedules grants as it did before them.
      ...(schedules.length > 0 ? { schedules } : {}),
    },
    problems,
    inputs: [...grantFiles(paths), ...candidatePaths(paths.workspace, texts)],
  }
}

/** What each stdio server names once `${VAR}` is replaced: its command, arguments and env. */
function stdioTexts(servers: readonly ConfiguredServer[]): ServerTexts[] {
  return servers.flatMap((server) =>
    server.launch?.type === 'stdio'
      ? [
          {
            server: server.name,
            texts: [
              server.launch.command,
              ...server.launch.args,
              ...Object.values(server.launch.env),
            ],
          },
        ]
      : [],
  )
}

function serverGrant(server: ConfiguredServer, workspace: string): McpServerGrant[] {
  const { launch, written } = server
  if (launch === null || written === null) return []
  const common = { key: `mcp:${server.name}`, name: server.name, source: server.source }
  if (launch.type === 'http' && written.type === 'http')
    return [
      {
        ...common,
        transport: 'http',
        url: shown(written.url, launch.url, { url: true }),
        headers: namedValues(written.headers, launch.headers),
      },
    ]
  if (launch.type === 'stdio' && written.type === 'stdio')
    return [
      {
        ...common,
        transport: 'stdio',
        command: shown(written.command, launch.command),
        args: launch.args.map((arg, index) => shown(written.args[index] ?? arg, arg)),
        env: namedValues(written.env, launch.env),
        cwd: workspace,
      },
    ]
  return []
}

function namedValues(
  written: Readonly<Record<string, string>>,
  expanded: Readonly<Record<string, string>>,
): ReturnType<typeof shownNamed>[] {
  return Object.keys(expanded)
    .sort()
    .map((name) => shownNamed(name, written[name] ?? '', expanded[name] ?? ''))
}

function readRules(paths: TeamPaths, problems: string[]): RuleGrant[] {
  try {
    const rules = readNeedsYou(needsYouPath(paths)).rules
    const unique = new Map<string, RuleGrant>()
    for (const rule of rules) {
      const key = `rule:${rule.agent}:${rule.tool}:${rule.pattern}`
      unique.set(key, { key, agent: rule.agent, tool: rule.tool, pattern: rule.pattern })
    }
    return [...unique.values()].sort((a, b) => a.key.localeCompare(b.key))
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error))
    return []
  }
}

/** The check command the app would run after each commit (reactions), as the file gives it. */
function readCheckGrants(paths: TeamPaths, problems: string[]): CheckGrant[] {
  const reading = readReactionsConfig(paths)
  if (reading.problem !== null) problems.push(reading.problem)
  const check = reading.config.check
  return check === null
    ? []
    : [{ key: 'check:command', command: check.command, timeout_seconds: check.timeout_seconds }]
}

function readProfileGrants(paths: TeamPaths, problems: string[]): ProfileGrant[] {
  try {
    return readProfiles(profilesPath(paths)).map((profile) => ({
      key: `profile:${profile.name}`,
      name: profile.name,
      description: profile.description,
      tools: [...profile.tools],
      approval: profile.approval,
      mcp: profile.mcp,
    }))
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error))
    return []
  }
}

/** A schedule sends its prompt with the person's key: a grant like any other. */
function readScheduleGrants(paths: TeamPaths, problems: string[]): ScheduleGrant[] {
  const reading = readSchedules(paths)
  if (reading.problem !== null) problems.push(reading.problem)
  return reading.schedules.map((schedule) => ({
    key: `schedule:${schedule.name}`,
    name: schedule.name,
    when: describeWhen(schedule.when),
    prompt: schedule.prompt,
    template: schedule.template,
    cap: describeCaps(schedule.caps),
    enabled: schedule.enabled,
  }))
}
