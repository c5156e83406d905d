import { LEAD } from '../../shared/names'
import type { TranscriptRecord } from '../../shared/transcript'
import { readTranscriptRecords } from '../agents/transcript-lines'
import { readTranscript } from '../agents/transcript-store'
import type { TeamHost } from '../host/host'
import { Mailbox } from '../mailbox/mailbox'
import { Roster } from '../roster/roster'
import type { TeamPaths } from '../team/paths'
import type { ExportSource } from './history-export'
import type { HistorySource } from './team-history'

/** Inbox lines read at a time: a large inbox is never held whole while it is indexed. */
const INBOX_PAGE = 1000

/** A running team's history: transcripts as its agents hold them, inboxes from their files. */
export function hostHistorySource(host: TeamHost): HistorySource & ExportSource {
  return {
    agents: () => [LEAD, ...host.team.roster.members.map((member) => member.name)],
    transcriptFrom: (agent, from) => host.transcript(agent, { fromSeq: from + 1 }).records,
    transcriptRecords: (agent) => host.transcript(agent, { fromSeq: 1 }).records,
    inboxPage: (agent, from) => host.inbox(agent, { from, limit: INBOX_PAGE }),
  }
}

/**
 * A team's history read from its files, without opening the team (the CLI, while the app may
 * have it open): the roster's agents, each transcript read once (for a search) or streamed (for
 * an export), inboxes page by page. `problems` collects the lines that were skipped.
 */
export function fileHistorySource(
  paths: TeamPaths,
): HistorySource & ExportSource & { problems: string[] } {
  const names = Roster.read(paths).members.map((member) => member.name)
  const mailbox = new Mailbox(paths, { members: () => names })
  const transcripts = new Map<string, readonly TranscriptRecord[]>()
  const problems: string[] = []
  const transcript = (agent: string): readonly TranscriptRecord[] => {
    let records = transcripts.get(agent)
    if (records === undefined) {
      const read = readTranscript(paths.transcript(agent))
      records = read.records
      problems.push(...read.problems.map((problem) => `${paths.transcript(agent)} ${problem}`))
      transcripts.set(agent, records)
    }
    return records
  }
  return {
    problems,
    agents: () => [LEAD, ...names],
    transcriptFrom: (agent, from) => transcript(agent).slice(from),
    *transcriptRecords(agent) {
      const path = paths.transcript(agent)
      for (const parsed of readTranscriptRecords(path)) {
        if (parsed.problem === undefined) yield parsed.record
        else problems.push(`${path} ${parsed.problem}`)
      }
    },
    inboxPage: (agent, from) => mailbox.peek(agent, { from, limit: INBOX_PAGE }),
  }
}
