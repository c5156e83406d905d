import { appendFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { AppService } from '../../../../src/app/app-service'
import { text } from '../../../../src/offline-model/script'
import { Roster } from '../../../../src/runtime/roster/roster'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import {
  exportResultSchema,
  historyLineSchema,
  searchResultSchema,
  type SearchResult,
} from '../../../../src/shared/history'
import { transcriptRecordSchema } from '../../../../src/shared/transcript'
import { agentScript } from '../../../helpers/agents'
import { appServices } from '../../../helpers/app-service'
import { generatedTranscript, writeTranscriptFile } from '../../../helpers/history'

describe('the contract: searchHistory and exportHistory', () => {
  let service: AppService | undefined
  const openService = appServices('agent-teams-history-')
  async function open(): Promise<{ workspace: string; service: AppService }> {
    const opened = await openService({
      script: agentScript((agent) =>
        agent === 'lead' ? text('Noted: the pelican report.') : undefined,
      ),
      prepare: (workspace) => {
        const paths = new TeamPaths(workspace)
        Roster.open(paths).update((draft) => {
          draft.members.push({ name: 'alice', role: 'coder', status: 'idle' })
        })
        writeTranscriptFile(paths, 'alice', generatedTranscript(10_000, { 40: 'an old walrus' }))
      },
    })
    service = opened.service
    return opened
  }

  const search = async (query: Record<string, unknown>): Promise<SearchResult> =>
    searchResultSchema.parse(await service?.execute('searchHistory', query))

  it('finds old records, then what the running team appends, without a rebuild', async () => {
    const { workspace, service } = await open()
    const old = await search({ text: 'walrus' })
    expect(old.groups.map((group) => [group.agent, group.hits[0]?.place])).toEqual([
      ['alice', { source: 'transcript', seq: 40 }],
    ])
    expect((await search({ text: 'pelican' })).total).toBe(0)

    await service.execute('chat', { text: 'Please write the pelican report.' })
    await service.currentHost?.whenIdle()
    const found = await search({ text: 'pelican report' })
    expect(found.groups.map((group) => group.agent)).toEqual(['lead'])
    expect(found.groups[0]?.hits.map((hit) => [hit.kind, hit.sender]).sort()).toEqual([
      ['assistant', 'lead'],
      ['user', 'user'],
    ])

    // A line another program appends to an inbox is found once the watcher reports it.
    appendFileSync(
      new TeamPaths(workspace).inbox('alice'),
      `${JSON.stringify({ type: 'message', from: 'lead', content: 'the narwhal file', timestamp: 1 })}\n`,
    )
    let places: unknown[] = []
    for (let tries = 0; tries < 500 && places.length < 2; tries++) {
      // The line, then alice's transcript once it took the mail in.
      const found = await search({ text: 'narwhal', agent: 'alice' })
      places = found.groups.flatMap((group) => group.hits.map((hit) => hit.place))
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    expect(places).toContainEqual({ source: 'inbox', position: { segment: 1, offset: 0 } })
    expect(places).toContainEqual({ source: 'transcript', seq: expect.any(Number) })
  })

  it('refuses hostile queries with the rule they break, and stays bounded', async () => {
    const { service } = await open()
    const refused = async (query: unknown, pattern: RegExp) => {
      await expect(service.execute('searchHistory', query)).rejects.toMatchObject({
        code: expect.stringMatching(/invalid-argument|invalid-name|unknown-agent/),
        message: expect.stringMatching(pattern),
      })
    }
    await refused({ text: 'x'.repeat(501) }, /text/)
    await refused({ text: 'x', agent: '../etc' }, /agent/)
    await refused({ text: 'x', agent: '__proto__' }, /agent/)
    await refused({ text: 'x', agent: 'nobody' }, /not on the roster/)
    await refused({ text: 'x', sender: 'A B' }, /sender/)
    await refused({ text: 'x', tool: 'read file; rm' }, /tool/)
    await refused({ text: 'x', since: 'yesterday' }, /since/)
    await refused({ text: 'x', until: Number.POSITIVE_INFINITY }, /until/)
    await refused({ text: 'x', limit: 0 }, /limit/)
    await refused({ text: 'x', limit: 1.5 }, /limit/)
    await refused({ text: 'x', limit: 100_000 }, /limit/)
    await refused({ text: 'x', extra: true }, /extra|Unrecognized/)
    await refused({ text: ['x'] }, /text/)
    await refused(null, /text/)
    // Text that means something elsewhere is only text.
    for (const text of ['(.*[', '\\', '"; DROP TABLE', '\u0000', '__proto__', 'zq '.repeat(166)])
      expect((await search({ text })).total).toBe(0)
    expect((await search({ text: 'walrus', limit: 500 })).total).toBe(1)
  })

  it('exports an agent and the team as Markdown and JSONL', async () => {
    const { service } = await open()
    await service.execute('sendMessage', { to: 'alice', content: 'A note for the export.' })
    const agent = exportResultSchema.parse(
      await service.execute('exportHistory', { agent: 'alice', format: 'jsonl' }),
    )
    expect(agent.fileName).toBe('alice-transcript.jsonl')
    const records = agent.content
      .trimEnd()
      .split('\n')
      .map((line) => transcriptRecordSchema.parse(JSON.parse(line)))
    expect(records).toHaveLength(10_000)
    expect(records[39]).toEqual(generatedTranscript(40, { 40: 'an old walrus' })[39])

    const team = exportResultSchema.parse(
      await service.execute('exportHistory', { format: 'jsonl' }),
    )
    const lines = team.content
      .trimEnd()
      .split('\n')
      .map((line) => historyLineSchema.parse(JSON.parse(line)))
    expect(lines.filter((line) => line.source === 'transcript')).toHaveLength(10_000)
    const mail = lines.filter((line) => line.source === 'inbox')
    expect(mail).toEqual([
      expect.objectContaining({
        agent: 'alice',
        state: 'pending',
        message: expect.objectContaining({ from: 'user', content: 'A note for the export.' }),
      }),
    ])

    const markdown = exportResultSchema.parse(
      await service.execute('exportHistory', { format: 'md' }),
    )
    expect(markdown.mimeType).toBe('text/markdown')
    expect(markdown.content).toContain('## alice')
    expect(markdown.content).toContain('an old walrus')
    expect(markdown.content).toContain('> A note for the export.')
    await expect(service.execute('exportHistory', { format: 'pdf' })).rejects.toMatchObject({
      code: 'invalid-argument',
    })
  })
})
