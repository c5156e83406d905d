import type { SearchHit, SearchQuery, SearchResult } from '../../shared/history'
import { documentText, type HistoryDocument } from './documents'
import { queryWords, snippetOf } from './snippet'
import { WordIndex } from './word-index'

/** Hits a query answers when it names no limit. */
export const DEFAULT_SEARCH_LIMIT = 200

/** One agent's documents (its transcript and its inbox) and their full-text index. */
class AgentIndex {
  readonly documents: HistoryDocument[] = []
  /** Its documents' words, numbered as `documents`. */
  readonly words = new WordIndex()

  add(document: HistoryDocument): void {
    this.words.add(documentText(document))
    this.documents.push(document)
  }

  /** The documents matching the text (all, best first) or, without text, every one, newest first. */
  matching(text: string | null, query: SearchQuery): HistoryDocument[] {
    const found: HistoryDocument[] = []
    if (text === null) {
      for (let id = this.documents.length - 1; id >= 0; id--) {
        const document = this.documents[id] as HistoryDocument
        if (matchesFilters(document, query)) found.push(document)
      }
      return found
    }
    for (const id of this.words.search(text)) {
      const document = this.documents[id]
      if (document !== undefined && matchesFilters(document, query)) found.push(document)
    }
    return found
  }
}

/**
 * The team's history as one searchable whole: an index per agent, so that the agent filter
 * and the grouping by agent cost nothing, with each document's facts beside it for the other
 * filters (sender, tool, time).
 */
export class HistoryIndex {
  private readonly agents = new Map<string, AgentIndex>()

  get size(): number {
    let size = 0
    for (const agent of this.agents.values()) size += agent.documents.length
    return size
  }

  add(document: HistoryDocument): void {
    let agent = this.agents.get(document.agent)
    if (agent === undefined) {
      agent = new AgentIndex()
      this.agents.set(document.agent, agent)
    }
    agent.add(document)
  }

  search(query: SearchQuery): SearchResult {
    const words = queryWords(query.text)
    const filtered =
      query.agent !== undefined ||
      query.sender !== undefined ||
      query.tool !== undefined ||
      query.since !== undefined ||
      query.until !== undefined
    if (words.length === 0 && !filtered) return { groups: [], total: 0 }
    const text = words.length === 0 ? null : words.join(' ')
    const matches: { agent: string; documents: HistoryDocument[] }[] = []
    for (const [agent, index] of this.agents) {
      if (query.agent !== undefined && agent !== query.agent) continue
      const documents = index.matching(text, query)
      if (documents.length > 0) matches.push({ agent, documents })
    }
    const shown = fairShares(
      matches.map((match) => match.documents.length),
      query.limit ?? DEFAULT_SEARCH_LIMIT,
    )
    return {
      groups: matches.map((match, group) => ({
        agent: match.agent,
        total: match.documents.length,
        hits: match.documents.slice(0, shown[group]).map((document) => toHit(document, words)),
      })),
      total: matches.reduce((sum, match) => sum + match.documents.length, 0),
    }
  }
}

/**
 * How many hits each group shows within `limit` in all: one each in turn, so that an agent
 * with thousands of matches does not crowd out one with a few.
 */
export function fairShares(sizes: readonly number[], limit: number): number[] {
  const shares = sizes.map(() => 0)
  let left = limit
  for (let round = 0; left > 0; round++) {
    let gave = false
    for (let group = 0; group < sizes.length && left > 0; group++) {
      if ((sizes[group] ?? 0) > round) {
        shares[group] = (shares[group] ?? 0) + 1
        left--
        gave = true
      }
    }
    if (!gave) break
  }
  return shares
}

function matchesFilters(document: HistoryDocument, query: SearchQuery): boolean {
  if (query.sender !== undefined && document.sender !== query.sender) return false
  if (query.tool !== undefined && !document.tools.includes(query.tool)) return false
  if (query.since !== undefined && !(document.at >= query.since)) return false
  if (query.until !== undefined && !(document.at <= query.until)) return false
  return true
}

function toHit(document: HistoryDocument, words: readonly string[]): SearchHit {
  const snippet = snippetOf(documentText(document), words)
  return {
    agent: document.agent,
    place:
      document.source === 'transcript'
        ? { source: 'transcript', seq: document.record.seq }
        : { source: 'inbox', position: document.position },
    kind: document.kind,
    sender: document.sender,
    tools: [...document.tools],
    at: document.at,
    snippet: snippet.text,
    highlights: snippet.highlights,
  }
}
