import type { SearchQuery, SearchResult } from '../../shared/history'
import type { TeamEvent } from '../../shared/events'
import type { TranscriptRecord } from '../../shared/transcript'
import type { InboxPage } from '../mailbox/mailbox'
import { comparePositions, type Position } from '../mailbox/position'
import { inboxDocument, transcriptDocuments } from './documents'
import { HistoryIndex } from './history-index'

/** Where the team's history is read from: a running team (the host) or its files (the CLI). */
export interface HistorySource {
  /** The lead and every member, in roster order. */
  agents(): string[]
  /** The records of `agent`'s transcript from the `from`-th (counting from 0) on. */
  transcriptFrom(agent: string, from: number): readonly TranscriptRecord[]
  /** A page of `agent`'s inbox from `from` on (from the start without one), of bounded size. */
  inboxPage(agent: string, from: Position | undefined): Promise<InboxPage>
}

/** Documents added between two turns of the event loop while the index is first built. */
const BUILD_SLICE = 2000

interface Progress {
  /** Transcript records indexed. */
  records: number
  /** The last inbox line indexed (from there on, the next read goes on). */
  inboxAt: Position | undefined
}

const yieldToEvents = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/**
 * Searches a team's history. The index is built at the first search (in slices, so that a
 * large team does not hold up the event loop), and kept up to date after it: each appended
 * transcript record is added as its event arrives, and an inbox that changed is read on from
 * where it was left at the next search. No search reads what was indexed before.
 */
export class TeamHistory {
  private readonly index = new HistoryIndex()
  private readonly progress = new Map<string, Progress>()
  private readonly changedInboxes = new Set<string>()
  private built: Promise<void> | null = null
  private ready = false

  constructor(private readonly source: HistorySource) {}

  /** What a running team reports: appended records are indexed at once, inboxes marked. */
  observe(event: TeamEvent): void {
    if (event.type === 'message-sent') this.changedInboxes.add(event.message.to)
    else if (event.type === 'inbox-changed') this.changedInboxes.add(event.name)
    else if (event.type === 'transcript-appended' && this.ready) this.catchUpTranscript(event.agent)
  }

  async search(query: SearchQuery): Promise<SearchResult> {
    await this.update()
    return this.index.search(query)
  }

  /** Documents indexed so far (for tests and the benchmark). */
  get size(): number {
    return this.index.size
  }

  /** Builds the index the first time; afterwards reads only what is new. */
  async update(): Promise<void> {
    this.built ??= this.build().catch((error: unknown) => {
      // A source that failed (a transcript that could not be read) is tried again next time.
      this.built = null
      throw error
    })
    await this.built
    for (const agent of this.source.agents()) {
      this.catchUpTranscript(agent)
      if (this.changedInboxes.delete(agent)) await this.catchUpInbox(agent)
    }
  }

  private async build(): Promise<void> {
    for (const agent of this.source.agents()) {
      const progress = this.progressOf(agent)
      // From where an earlier, failed build left off: nothing is indexed twice.
      const records = this.source.transcriptFrom(agent, progress.records)
      for (let start = 0; start < records.length; start += BUILD_SLICE) {
        const slice = records.slice(start, start + BUILD_SLICE)
        for (const record of slice)
          for (const document of transcriptDocuments(agent, record)) this.index.add(document)
        progress.records += slice.length
        await yieldToEvents()
      }
      // Records appended while the slices were added are read by the catch-up.
      this.catchUpTranscript(agent)
      this.changedInboxes.delete(agent)
      await this.catchUpInbox(agent)
    }
    this.ready = true
  }

  private progressOf(agent: string): Progress {
    let progress = this.progress.get(agent)
    if (progress === undefined) {
      progress = { records: 0, inboxAt: undefined }
      this.progress.set(agent, progress)
    }
    return progress
  }

  private catchUpTranscript(agent: string): void {
    const progress = this.progressOf(agent)
    const records = this.source.transcriptFrom(agent, progress.records)
    for (const record of records)
      for (const document of transcriptDocuments(agent, record)) this.index.add(document)
    progress.records += records.length
  }

  private async catchUpInbox(agent: string): Promise<void> {
    const progress = this.progressOf(agent)
    // The last line indexed is read again (a page ends without saying where that line ends).
    let from = progress.inboxAt
    for (;;) {
      const page = await this.source.inboxPage(agent, from)
      for (const entry of page.entries) {
        const seen = progress.inboxAt
        if (seen !== undefined && comparePositions(entry.position, seen) <= 0) continue
        progress.inboxAt = entry.position
        if (entry.message) this.index.add(inboxDocument(agent, entry.position, entry.message))
      }
      if (page.next === null) return
      from = page.next
    }
  }
}
