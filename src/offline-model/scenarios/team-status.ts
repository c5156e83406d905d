import type { ModelRequest, Reply } from '../script'
import { latestResults, mailSeen, type MailSeen } from './reading'

const OFFLINE_HINT =
  'I am the offline model: I can pass on requests like "have alice message bob". For real work, add an API key in Settings.'

/**
 * The lead's answer when no script applies (after the demo, or a question it has no rule for):
 * where the team stands, read from the real state rather than a canned line. It first asks the
 * runtime for the roster (list_teammates); with the answer, it names each teammate, its status,
 * and the last message from it that reached the lead, or says that none did.
 */
export function teamStatus(request: ModelRequest): Reply {
  const roster = latestResults(request).find((result) => result.name === 'list_teammates')
  if (roster === undefined)
    return {
      content: [
        { type: 'text', text: 'Let me look at the team.' },
        { type: 'tool_use', name: 'list_teammates', input: {} },
      ],
    }
  if (roster.isError)
    return { content: [{ type: 'text', text: `I could not read the roster: ${roster.content}` }] }
  return { content: [{ type: 'text', text: describeTeam(roster.content, mailSeen(request)) }] }
}

interface Member {
  readonly name: string
  readonly role: string
  readonly status: string
}

/** list_teammates' lines: `  name (role[, model]): status[, what it is on, where it works]`. */
function membersOf(roster: string): Member[] {
  return roster.split('\n').flatMap((line) => {
    const match = /^\s+([a-z][a-z0-9_-]*) \(([^)]*)\): ([a-z-]+)(?:,.*)?$/.exec(line)
    if (match === null) return []
    const [, name = '', details = '', status = ''] = match
    return [{ name, role: details.split(', ')[0] ?? details, status }]
  })
}

function describeTeam(roster: string, mail: readonly MailSeen[]): string {
  const members = membersOf(roster)
  if (members.length === 0) return `No teammates yet. ${OFFLINE_HINT}`
  const lines = members.map((member) => {
    const last = mail.findLast((item) => item.from === member.name)
    const heard =
      last === undefined ? 'nothing from them has reached me' : `last said: "${last.content}"`
    return `- ${member.name} (${member.role}) is ${member.status}; ${heard}`
  })
  return [`Where the team stands:`, ...lines, '', OFFLINE_HINT].join('\n')
}
