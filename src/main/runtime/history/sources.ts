import { LEAD } from '../../../shared/names'
import type { TranscriptRecord } from '../../../shared/transcript'
import { readTranscript } from '../agents/transcript-store'
import type { TeamHost } from '../host'
import { Mailbox } from '../mailbox/mailbox'
import { Roster } from '../roster/roster'
import type { TeamPaths } from '../team-paths'
import type { HistorySource } from './team-history'

/** Inbox lines read at a time: a large inbox is never held whole while it is indexed. */
const INBOX_PAGE = 1000

/** A running team's history: transcripts as its agents hold them, inboxes from their files. */
export function hostHistorySource(host: TeamHost): HistorySource {
  return {
    agents: () => [LEAD, ...host.team.roster.members.map((member) => member.name)],
    transcriptFrom: (agent, from) => host.transcript(agent, { fromSeq: from + 1 }).records,
    inboxPage: (agent, from) => host.inbox(agent, { from, limit: INBOX_PAGE }),
  }
}

/**
 * A team's history read from its files, without opening the team (the CLI, while the app may
 * have it open): the roster's agents, each transcript read once, inboxes page by page.
 */
export function fileHistorySource(paths: TeamPaths): HistorySource & { problems: string[] } {
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
    inboxPage: (agent, from) => mailbox.peek(agent, { from, limit: INBOX_PAGE }),
  }
}
