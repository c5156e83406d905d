import type { GrantChange, NamedValue, ShownValue, TrustView } from '../shared/trust'
import { oneLine } from './output'

/**
 * The trust question on a terminal: everything the workspace grants, in full (command lines,
 * env values, addresses with their queries, headers, files with their hashes, hosts, rules,
 * profiles), each value as written and as it runs, secrets marked, changes marked. The
 * repository wrote every one of them: each is printed on one line with its control characters
 * shown as escapes (`oneLine`), so that no value can show another command or fake a line.
 */
export function describeTrust(view: TrustView): string[] {
  const mark = changeMarks(view.changes)
  const { grants } = view
  const lines: string[] = [`Workspace ${view.workspace}`, ...standing(view)]
  if (grants.mcpServers.length > 0) {
    lines.push('', 'MCP servers (they run programs with the tools they give the agents):')
    for (const server of grants.mcpServers) {
      const from = server.source === 'workspace' ? '.mcp.json' : '.team/mcp.json'
      lines.push(`  ${oneLine(server.name)} (${server.transport}, ${from})${mark(server.key)}`)
      if (server.transport === 'stdio') {
        lines.push(`    command: ${value(server.command)}`)
        server.args.forEach((arg, index) => lines.push(`    arg ${index + 1}: ${value(arg)}`))
        for (const env of server.env) lines.push(`    env ${named(env, '=')}`)
        lines.push(`    runs in: ${oneLine(server.cwd)}`)
      } else {
        lines.push(`    url: ${value(server.url)}`)
        for (const header of server.headers) lines.push(`    header ${named(header, ': ')}`)
      }
    }
  }
  if (grants.files.length > 0) {
    lines.push('', 'Files the servers name (asked again when one changes):')
    for (const file of grants.files)
      lines.push(
        `  ${oneLine(file.path)}${file.target === null ? '' : ` -> ${oneLine(file.target)}`}  sha256 ${file.sha256}  ${file.bytes} bytes  (${file.servers.map(oneLine).join(', ')})${mark(file.key)}`,
      )
  }
  if (grants.allowedHosts.length > 0) {
    lines.push('', 'Allowed hosts (.team/sandbox.json: bash and the servers may connect to them):')
    for (const host of grants.allowedHosts) lines.push(`  ${oneLine(host.host)}${mark(host.key)}`)
  }
  if (grants.approveAlways.length > 0) {
    lines.push('', '"Approve always" rules (.team/needs-you.json: these run without asking):')
    for (const rule of grants.approveAlways)
      lines.push(
        `  ${oneLine(rule.agent)}: ${rule.tool === 'bash' ? 'bash' : rule.tool === 'mcp' ? 'MCP tool' : 'writes under'} ${oneLine(rule.pattern)}${mark(rule.key)}`,
      )
  }
  if (grants.profiles.length > 0) {
    lines.push('', 'Custom profiles (.team/profiles.json):')
    for (const profile of grants.profiles)
      lines.push(
        `  ${oneLine(profile.name)}: approvals ${profile.approval}; tools ${profile.tools.map(oneLine).join(', ') || 'none'}; MCP tools ${profile.mcp ? 'yes' : 'no'}${profile.description ? `; ${oneLine(profile.description)}` : ''}${mark(profile.key)}`,
      )
  }
  const checks = grants.checks ?? []
  if (checks.length > 0) {
    lines.push(
      '',
      view.sandbox.available
        ? 'Check command (.team/reactions.json: run after each teammate commit, in its sandbox):'
        : 'Check command (.team/reactions.json: run after each teammate commit; there is no OS sandbox here, so each run asks you first):',
    )
    for (const check of checks)
      lines.push(
        `  ${oneLine(check.command)}  (killed after ${check.timeout_seconds} s)${mark(check.key)}`,
      )
  }
  const schedules = grants.schedules ?? []
  if (schedules.length > 0) {
    lines.push('', 'Scheduled runs (.team/schedules.json: prompts sent to the lead by themselves):')
    for (const schedule of schedules)
      lines.push(
        `  ${oneLine(schedule.name)}: ${oneLine(schedule.when)}${schedule.enabled ? '' : ' (off)'}; cap ${schedule.cap}${schedule.template === null ? '' : `; template ${oneLine(schedule.template)}`}${mark(schedule.key)}`,
        ...schedule.prompt.split('\n').map((line) => `      ${line}`),
      )
  }
  const removed = view.changes.filter((change) => change.change === 'removed')
  if (removed.length > 0)
    lines.push(
      '',
      'Gone since you agreed:',
      ...removed.map((change) => `  ${oneLine(change.label)}`),
    )
  if (grants.mcpServers.some((server) => server.transport === 'stdio'))
    lines.push(
      '',
      view.sandbox.available
        ? `Stdio servers run in the OS sandbox (${view.sandbox.mechanism}): they write only in the workspace, never in .team/, and reach only the allowed hosts.`
        : `There is no OS sandbox here: stdio servers will run with your full rights (${view.sandbox.reason})`,
    )
  if (view.problems.length > 0)
    lines.push(
      '',
      'Not read (nothing in them applies):',
      ...view.problems.map((text) => `  ${oneLine(text)}`),
    )
  return lines
}

/** Where the workspace stands, and what trusting it changes. */
function standing(view: TrustView): string[] {
  switch (view.reason) {
    case 'made-here':
      return ['Trusted: the app made its .team/ and it grants nothing you did not add.']
    case 'agreed':
      return ['Trusted: you agreed to what it grants.']
    case 'for-this-run':
      return ['Trusted for this run (--trust-workspace).']
    case 'no-record':
      return [
        'Not trusted: its .team/ was not made here and you never agreed to it. It may be a cloned',
        'repository, or a team from before this version of Agent Teams.',
        ...UNTIL,
      ]
    case 'not-reviewed':
      return [
        'Not trusted yet: the app made its .team/, but the folder grants more that you have not',
        'seen ([new] below): its own .mcp.json, or what was added by hand since.',
        ...UNTIL,
      ]
    case 'changed':
      return [
        'Not trusted: what it grants changed since you agreed ([new] and [changed] below).',
        ...UNTIL,
      ]
  }
}

const UNTIL = [
  'Until you trust it, no MCP server starts, no host is allowed, no "approve always" rule',
  'applies, custom profiles are not used, no scheduled run fires, and no agent wakes but by',
  'your own message.',
]

function changeMarks(changes: readonly GrantChange[]): (key: string) => string {
  const byKey = new Map(changes.map((change) => [change.key, change.change]))
  return (key) => {
    const change = byKey.get(key)
    return change === undefined ? '' : `  [${change}]`
  }
}

/** As written, then as it runs when `${VAR}` changed it; [secret] when it is one. */
function value(shown: ShownValue): string {
  const expanded = shown.expanded === shown.written ? '' : `  (runs as: ${oneLine(shown.expanded)})`
  return `${oneLine(shown.written)}${expanded}${shown.secret ? '  [secret]' : ''}`
}

function named(shown: NamedValue, separator: string): string {
  return `${oneLine(shown.name)}${separator}${value(shown)}`
}
