import { describe, expect, it } from 'vitest'
import { fairShares, HistoryIndex } from '../../../../src/runtime/history/history-index'
import { fileHistorySource } from '../../../../src/runtime/history/sources'
import { snippetOf } from '../../../../src/runtime/history/snippet'
import { TeamHistory } from '../../../../src/runtime/history/team-history'
import { transcriptDocuments } from '../../../../src/runtime/history/documents'
import type { SearchResult } from '../../../../src/shared/history'
import { generatedTranscript, HISTORY_START, writeTranscriptFile } from '../../../helpers/history'
import { tempTeam } from '../../../helpers/workspace'

const places = (result: SearchResult) =>
  result.groups.flatMap((group) =>
    group.hits.map((hit) =>
      hit.place.source === 'transcript'
        ? `${hit.agent}#${hit.place.seq}`
        : `${hit.agent}@${hit.place.position.segment}:${hit.place.position.offset}`,
    ),
  )

describe('the team history index', () => {
  it('finds a message in an old part of a 10,000-record transcript', async () => {
    const team = tempTeam(['alice', 'bob'])
    writeTranscriptFile(
      team.paths,
      'alice',
      generatedTranscript(10_000, { 37: 'the quokka migration plan' }),
    )
    writeTranscriptFile(team.paths, 'bob', generatedTranscript(300))
    const history = new TeamHistory(fileHistorySource(team.paths))
    const result = await history.search({ text: 'quokka migration' })
    expect(places(result)).toEqual(['alice#37'])
    expect(result.total).toBe(1)
    const hit = result.groups[0]?.hits[0]
    expect(hit?.kind).toBe('user')
    expect(hit?.sender).toBe('lead')
    const marked = hit?.highlights.map(([start, end]) => hit.snippet.slice(start, end))
    expect(marked).toEqual(['quokka', 'migration'])
    // The word being typed matches as a prefix.
    expect(places(await history.search({ text: 'quok' }))).toEqual(['alice#37'])
    expect(places(await history.search({ text: 'quokka nothing-like-it' }))).toEqual([])
  })

  it('groups by agent with every count, and shares the limit fairly', async () => {
    const team = tempTeam(['alice', 'bob'])
    writeTranscriptFile(team.paths, 'alice', generatedTranscript(90))
    writeTranscriptFile(team.paths, 'bob', generatedTranscript(9))
    const history = new TeamHistory(fileHistorySource(team.paths))
    const result = await history.search({ text: 'module', limit: 10 })
    expect(result.groups.map((group) => [group.agent, group.total, group.hits.length])).toEqual([
      ['alice', 60, 5],
      ['bob', 6, 5],
    ])
    expect(result.total).toBe(66)
    expect(fairShares([100, 2, 0, 7], 10)).toEqual([4, 2, 0, 4])
  })

  it('filters by agent, sender, tool and time', async () => {
    const team = tempTeam(['alice', 'bob'])
    writeTranscriptFile(team.paths, 'alice', generatedTranscript(30))
    writeTranscriptFile(team.paths, 'bob', generatedTranscript(30))
    team.mailbox.send({ from: 'alice', to: 'bob', content: 'module 3 is done' })
    team.mailbox.send({ from: 'user', to: 'bob', content: 'and module 4?' })
    const history = new TeamHistory(fileHistorySource(team.paths))
    const count = async (query: Parameters<TeamHistory['search']>[0]) =>
      (await history.search(query)).total
    expect(await count({ text: 'module', agent: 'bob' })).toBe(22)
    expect(await count({ text: 'module', sender: 'alice' })).toBe(11)
    expect(await count({ text: 'module', sender: 'user' })).toBe(1)
    expect(places(await history.search({ text: 'module', sender: 'alice', agent: 'bob' }))).toEqual(
      [expect.stringMatching(/^bob@1:\d+$/)],
    )
    // read_file: the calls (assistant records) and their results.
    expect(await count({ text: '', tool: 'read_file', agent: 'alice' })).toBe(20)
    expect(await count({ text: 'value3', tool: 'read_file' })).toBe(2)
    // Records 10 to 12 of each transcript, one a minute.
    const since = HISTORY_START + 10 * 60
    const until = HISTORY_START + 12 * 60
    expect(places(await history.search({ text: '', since, until, agent: 'alice' }))).toEqual([
      'alice#12',
      'alice#11',
      'alice#10',
    ])
    // No text and no filter asks for nothing.
    expect(await history.search({ text: '  ' })).toEqual({ groups: [], total: 0 })
  })

  it('adds what is appended without reading again what it indexed', async () => {
    const team = tempTeam(['alice'])
    writeTranscriptFile(team.paths, 'alice', generatedTranscript(50))
    const records = generatedTranscript(60, { 55: 'late zebra' })
    let length = 50
    let transcriptReads = 0
    const source = fileHistorySource(team.paths)
    const history = new TeamHistory({
      agents: () => ['alice'],
      transcriptFrom: (_agent, from) => {
        transcriptReads++
        return records.slice(from, length)
      },
      inboxPage: (agent, from) => source.inboxPage(agent, from),
    })
    expect((await history.search({ text: 'zebra' })).total).toBe(0)
    const built = history.size
    length = 60
    history.observe({ type: 'transcript-appended', agent: 'alice', record: records[50]! })
    expect(history.size).toBe(built + 10)
    team.mailbox.send({ from: 'user', to: 'alice', content: 'a zebra in the inbox' })
    history.observe({
      type: 'inbox-changed',
      name: 'alice',
      change: 'appended',
      pending: 1,
    })
    const reads = transcriptReads
    const found = await history.search({ text: 'zebra' })
    expect(places(found).sort()).toEqual(['alice#55', 'alice@1:0'])
    expect(history.size).toBe(built + 11)
    // A search asks for what follows the last record only: nothing is read twice.
    expect(transcriptReads - reads).toBe(1)
    expect((await history.search({ text: 'zebra' })).total).toBe(2)
    expect(history.size).toBe(built + 11)
  })

  it('reports a source that fails, and tries it again at the next search', async () => {
    const team = tempTeam(['alice'])
    const source = fileHistorySource(team.paths)
    let failing = true
    const history = new TeamHistory({
      ...source,
      transcriptFrom: (agent, from) => {
        if (agent === 'lead') return generatedTranscript(3, { 1: 'ibis' }).slice(from)
        if (failing) throw new Error('The transcript could not be read.')
        return generatedTranscript(3, { 2: 'ibis' }).slice(from)
      },
    })
    await expect(history.search({ text: 'ibis' })).rejects.toThrow(/could not be read/)
    failing = false
    // The lead's records, indexed before the failure, are not indexed twice.
    expect(places(await history.search({ text: 'ibis' }))).toEqual(['lead#1', 'alice#2'])
  })

  it('marks each match in a snippet around the first one', () => {
    const text = `${'x '.repeat(200)}the Quokka and the quokkas`
    const snippet = snippetOf(text, ['quokka'])
    expect(snippet.text.startsWith('…')).toBe(true)
    expect(snippet.highlights.map(([start, end]) => snippet.text.slice(start, end))).toEqual([
      'Quokka',
      'quokka',
    ])
    // Characters that mean something to a regular expression are only text.
    expect(snippetOf('a (.*[ b', ['.*[']).highlights).toEqual([[3, 6]])
    expect(snippetOf('a (x b', ['.*']).highlights).toEqual([])
    expect(() => snippetOf('x', ['(', '[', '\\'])).not.toThrow()
  })

  it('indexes each message of an inbox record with its own sender', () => {
    const index = new HistoryIndex()
    for (const document of transcriptDocuments('lead', {
      v: 1,
      seq: 1,
      at: 1,
      kind: 'inbox',
      end: { segment: 1, offset: 10 },
      messages: [
        {
          id: 'm1',
          type: 'message',
          from: 'alice',
          content: 'tests pass',
          timestamp: 1,
          extra: {},
        },
        { id: 'm2', type: 'message', from: 'bob', content: 'tests fail', timestamp: 1, extra: {} },
      ],
    }))
      index.add(document)
    expect(index.search({ text: 'tests', sender: 'bob' }).groups[0]?.hits[0]?.snippet).toBe(
      'tests fail',
    )
  })
})
