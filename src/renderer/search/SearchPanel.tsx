import { useEffect, useState, type ReactNode } from 'react'
import type { SearchHit, SearchQuery } from '../../shared/history'
import { LEAD, USER } from '../../shared/names'
import { useAppStore } from '../store/context'
import { Dialog } from '../ui/Dialog'
import { ExportButtons } from './ExportButtons'
import { formatSeconds, senderName } from '../ui/format'

/** How long typing pauses before the search runs (ms): one query per word, not per key. */
const TYPING_PAUSE_MS = 150

/** The form's fields as typed; dates are the inputs' `YYYY-MM-DD`. */
interface Form {
  text: string
  agent: string
  sender: string
  tool: string
  since: string
  until: string
}

function formOf(query: SearchQuery): Form {
  const day = (seconds: number | undefined) =>
    seconds === undefined ? '' : new Date(seconds * 1000).toISOString().slice(0, 10)
  return {
    text: query.text,
    agent: query.agent ?? '',
    sender: query.sender ?? '',
    tool: query.tool ?? '',
    since: day(query.since),
    until: day(query.until === undefined ? undefined : query.until - 86_399),
  }
}

/** The query a form asks (a date range covers its whole last day, in UTC). */
export function queryOf(form: Form): SearchQuery {
  const seconds = (day: string) => (day === '' ? undefined : Date.parse(`${day}T00:00:00Z`) / 1000)
  const until = seconds(form.until)
  const tool = form.tool.trim()
  return {
    text: form.text,
    ...(form.agent ? { agent: form.agent } : {}),
    ...(form.sender ? { sender: form.sender } : {}),
    ...(tool ? { tool } : {}),
    ...(form.since ? { since: seconds(form.since) } : {}),
    ...(until !== undefined ? { until: until + 86_399 } : {}),
  }
}

/** Search across the team: every transcript and inbox, results grouped by agent. */
export function SearchPanel() {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const searchHistory = useAppStore((state) => state.searchHistory)
  const last = useAppStore((state) => state.searchQuery)
  const order = useAppStore((state) => state.order)
  const [form, setForm] = useState<Form>(() => formOf(last))
  const change = (field: keyof Form) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }))

  useEffect(() => {
    const timer = setTimeout(() => void searchHistory(queryOf(form)), TYPING_PAUSE_MS)
    return () => clearTimeout(timer)
  }, [form, searchHistory])

  return (
    <Dialog title="Search the team" onClose={closeDialog} wide>
      <div className="search-panel" data-testid="search-panel">
        <input
          type="search"
          className="input search-text"
          aria-label="Text to find"
          placeholder="Find in every transcript and inbox…"
          value={form.text}
          maxLength={500}
          data-autofocus
          onChange={(event) => change('text')(event.target.value)}
        />
        <div className="search-filters">
          <Filter label="Agent">
            <select value={form.agent} onChange={(event) => change('agent')(event.target.value)}>
              <option value="">All agents</option>
              {order.map((name) => (
                <option key={name} value={name}>
                  {name === LEAD ? 'Lead' : name}
                </option>
              ))}
            </select>
          </Filter>
          <Filter label="From">
            <select value={form.sender} onChange={(event) => change('sender')(event.target.value)}>
              <option value="">Anyone</option>
              <option value={USER}>You</option>
              {order.map((name) => (
                <option key={name} value={name}>
                  {name === LEAD ? 'Lead' : name}
                </option>
              ))}
            </select>
          </Filter>
          <Filter label="Tool">
            <input
              className="input"
              placeholder="bash, read_file…"
              value={form.tool}
              maxLength={64}
              onChange={(event) => change('tool')(event.target.value)}
            />
          </Filter>
          <Filter label="Since">
            <input
              type="date"
              className="input"
              value={form.since}
              onChange={(event) => change('since')(event.target.value)}
            />
          </Filter>
          <Filter label="Until">
            <input
              type="date"
              className="input"
              value={form.until}
              onChange={(event) => change('until')(event.target.value)}
            />
          </Filter>
        </div>
        <SearchResults />
        <ExportButtons agent={form.agent === '' ? null : form.agent} />
      </div>
    </Dialog>
  )
}

function Filter({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <label className="search-filter">
      <span className="search-filter-label">{label}</span>
      {children}
    </label>
  )
}

function SearchResults() {
  const status = useAppStore((state) => state.searchStatus)
  const result = useAppStore((state) =>
    state.searchWorkspace === state.workspace ? state.searchResult : null,
  )
  const error = useAppStore((state) => state.searchError)
  const openHit = useAppStore((state) => state.openSearchHit)
  if (status === 'failed')
    return (
      <p className="inline-error" role="alert">
        The search failed: {error}
      </p>
    )
  if (result === null)
    return (
      <p className="muted search-hint">
        {status === 'searching' ? 'Searching…' : 'Type to search.'}
      </p>
    )
  if (result.total === 0)
    return <p className="muted search-hint">Nothing found. Try fewer words or other filters.</p>
  const shown = result.groups.reduce((sum, group) => sum + group.hits.length, 0)
  return (
    <div className="search-results" aria-busy={status === 'searching'} data-testid="search-results">
      <p className="muted small">
        {result.total === shown
          ? `${result.total} ${result.total === 1 ? 'match' : 'matches'}`
          : `${shown} of ${result.total} matches shown; add words or filters to narrow them`}
      </p>
      {result.groups.map((group) => (
        <section
          key={group.agent}
          className="search-group"
          data-testid={`search-group-${group.agent}`}
        >
          <h3 className="search-group-title">
            {group.agent === LEAD ? 'Lead' : group.agent}
            <span className="muted"> · {group.total}</span>
          </h3>
          <ul className="search-hits">
            {group.hits.map((hit) => (
              <li key={hitKey(hit)}>
                <button
                  type="button"
                  className="search-hit"
                  data-testid="search-hit"
                  onClick={() => openHit(hit)}
                >
                  <span className="search-hit-meta">
                    {describeHit(hit)} · {formatSeconds(hit.at)}
                  </span>
                  <Highlighted text={hit.snippet} highlights={hit.highlights} />
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  )
}

function hitKey(hit: SearchHit): string {
  return hit.place.source === 'transcript'
    ? `${hit.agent}:t${hit.place.seq}:${hit.sender}:${hit.snippet.length}`
    : `${hit.agent}:i${hit.place.position.segment}-${hit.place.position.offset}`
}

function describeHit(hit: SearchHit): string {
  const tools = hit.tools.length > 0 ? ` (${hit.tools.join(', ')})` : ''
  switch (hit.kind) {
    case 'mail':
      return `Inbox · from ${senderName(hit.sender)}`
    case 'inbox':
      return `Mail taken in · from ${senderName(hit.sender)}`
    case 'tool-result':
      return `Tool result${tools}`
    case 'assistant':
      return `${senderName(hit.sender)}${tools}`
    case 'user':
      return `Task · from ${senderName(hit.sender)}`
    default:
      return hit.kind
  }
}

/** The snippet with each match in a <mark>. */
export function Highlighted({
  text,
  highlights,
}: {
  readonly text: string
  readonly highlights: readonly (readonly [number, number])[]
}) {
  const parts: ReactNode[] = []
  let at = 0
  for (const [start, end] of highlights) {
    if (start < at || end > text.length) continue
    if (start > at) parts.push(text.slice(at, start))
    parts.push(<mark key={start}>{text.slice(start, end)}</mark>)
    at = end
  }
  parts.push(text.slice(at))
  return <span className="search-snippet">{parts}</span>
}
