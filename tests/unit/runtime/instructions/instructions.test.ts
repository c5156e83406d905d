import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { queueScript, text } from '../../../../src/offline-model/script'
import type { RecordedRequest } from '../../../../src/offline-model/offline-server'
import { requestsOf } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

/** The system prompt's text as the offline model server received it. */
function systemOf(request: RecordedRequest | undefined): string {
  if (!request) throw new Error('no such request was recorded')
  const system = request.body.system
  if (typeof system === 'string') return system
  return (system as { text: string }[]).map((block) => block.text).join('')
}

function write(root: string, path: string, content: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), content)
}

describe('project instructions in the system prompt', () => {
  it('gives every agent the root files, and a teammate in a subfolder the nearer ones last', async () => {
    const { dir } = tempWorkspace()
    write(dir, 'AGENTS.md', 'ROOT-AGENTS: use tabs.')
    write(dir, 'CLAUDE.md', 'ROOT-CLAUDE: run the tests.')
    write(dir, 'web/AGENTS.md', 'WEB-AGENTS: use React.')
    write(dir, 'web/app/CLAUDE.md', 'APP-CLAUDE: no class components.')
    write(dir, 'api/AGENTS.md', 'API-AGENTS: never seen by web agents.')
    const script = queueScript({ lead: [text('ok')], alice: [text('ok')], bob: [text('ok')] })
    const team = await startHost(script, {
      workspace: dir,
      workingFolder: (name) => (name === 'alice' ? { workingFolder: join(dir, 'web/app') } : {}),
    })
    team.host.chat('hello')
    await team.host.spawn({ name: 'alice', role: 'frontend', prompt: 'go' })
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'go' })
    await team.host.whenIdle()
    script.assertConsumed()

    const lead = systemOf(requestsOf(team, 'lead')[0])
    expect(lead).toContain('ROOT-AGENTS: use tabs.')
    expect(lead).toContain('ROOT-CLAUDE: run the tests.')
    expect(lead).not.toContain('WEB-AGENTS')
    const bob = systemOf(requestsOf(team, 'bob')[0])
    expect(bob).toContain('ROOT-AGENTS')
    expect(bob).not.toContain('WEB-AGENTS')
    const alice = systemOf(requestsOf(team, 'alice')[0])
    const order = ['ROOT-AGENTS', 'ROOT-CLAUDE', 'WEB-AGENTS', 'APP-CLAUDE'].map((marker) =>
      alice.indexOf(marker),
    )
    expect(order.every((position) => position >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    expect(alice).not.toContain('API-AGENTS')
    expect(alice).toContain('<file path="web/app/CLAUDE.md">')

    expect(
      team.host.instructionFiles('alice').map((file) => [file.path, file.kind, file.bytes]),
    ).toEqual([
      ['AGENTS.md', 'agents', 'ROOT-AGENTS: use tabs.'.length],
      ['CLAUDE.md', 'claude', 'ROOT-CLAUDE: run the tests.'.length],
      ['web/AGENTS.md', 'agents', 'WEB-AGENTS: use React.'.length],
      ['web/app/CLAUDE.md', 'claude', 'APP-CLAUDE: no class components.'.length],
    ])
  })

  it('gives a teammate in a worktree outside the workspace the worktree’s own files too', async () => {
    const { dir } = tempWorkspace()
    const worktree = mkdtempSync(join(tmpdir(), 'agent-teams-worktree-'))
    onTestFinished(() => rmSync(worktree, { recursive: true, force: true }))
    write(dir, 'AGENTS.md', 'ROOT-AGENTS: shared.')
    // A checkout of the same project: its copy of the root file is included once.
    write(worktree, 'AGENTS.md', 'ROOT-AGENTS: shared.')
    write(worktree, 'pkg/CLAUDE.md', 'TREE-CLAUDE: @../../outside.md')
    const script = queueScript({ alice: [text('ok')] })
    const team = await startHost(script, {
      workspace: dir,
      workingFolder: () => ({ workingFolder: join(worktree, 'pkg'), workingRoot: worktree }),
    })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'go' })
    await team.host.whenIdle()
    const alice = systemOf(requestsOf(team, 'alice')[0])
    expect(alice.split('ROOT-AGENTS: shared.')).toHaveLength(2)
    expect(alice).toContain('TREE-CLAUDE')
    const files = team.host.instructionFiles('alice')
    expect(files.map((file) => file.problem)).toEqual([
      null,
      'the same text as AGENTS.md; included once',
      null,
      'outside the workspace (instructions are read only from inside it); not read',
    ])
  })

  it('picks up an edit, a new file and the team note at the next call, and keeps the prefix cached', async () => {
    const { dir } = tempWorkspace()
    write(dir, 'AGENTS.md', 'VERSION-ONE')
    const script = queueScript({ lead: [text('1'), text('2'), text('3'), text('4')] })
    const team = await startHost(script, { workspace: dir })
    team.host.chat('first')
    await team.host.whenIdle()
    team.host.chat('second (nothing changed)')
    await team.host.whenIdle()
    write(dir, 'AGENTS.md', 'VERSION-TWO, a little longer')
    write(dir, 'CLAUDE.md', 'NEW-CLAUDE')
    team.host.chat('third')
    await team.host.whenIdle()
    team.host.note.write('NOTE: ship on Fridays only.', 1)
    team.host.chat('fourth')
    await team.host.whenIdle()
    script.assertConsumed()

    const systems = requestsOf(team, 'lead').map(systemOf)
    expect(systems[0]).toContain('VERSION-ONE')
    expect(systems[1]).toBe(systems[0])
    expect(systems[2]).toContain('VERSION-TWO, a little longer')
    expect(systems[2]).toContain('NEW-CLAUDE')
    expect(systems[2]).not.toContain('VERSION-ONE')
    expect(systems[3]).toContain('<team-note>\nNOTE: ship on Fridays only.\n</team-note>')
    // The unchanged prompt was read from the cache at the second call.
    const usage = team.records('lead', 'assistant').map((record) => record.usage)
    expect(usage[1]?.cache_read_input_tokens ?? 0).toBeGreaterThan(0)
    expect(team.host.note.read()).toMatchObject({ text: 'NOTE: ship on Fridays only.' })
  })

  it('follows CLAUDE.md imports, refusing a cycle, an escape and .team/', async () => {
    const { dir } = tempWorkspace()
    const outside = mkdtempSync(join(tmpdir(), 'agent-teams-outside-'))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    write(outside, 'secret.md', 'OUTSIDE-SECRET')
    write(
      dir,
      'CLAUDE.md',
      [
        'Read @docs/style.md and @../' + outside.split('/').pop() + '/secret.md.',
        'Also @' + join(outside, 'secret.md'),
        '`@not/an/import.md` in code, and',
        '```',
        '@also/not.md',
        '```',
        'And @.team/config.json, @missing.md',
      ].join('\n'),
    )
    write(dir, 'docs/style.md', 'STYLE: @more/naming.md')
    write(dir, 'docs/more/naming.md', 'NAMING: @../style.md (a cycle)')
    const script = queueScript({ lead: [text('ok')] })
    const team = await startHost(script, { workspace: dir })
    team.host.chat('hi')
    await team.host.whenIdle()
    const system = systemOf(requestsOf(team, 'lead')[0])
    expect(system).toContain('<file path="docs/style.md">\nSTYLE')
    expect(system).toContain('<file path="docs/more/naming.md">\nNAMING')
    expect(system.split('STYLE: @more').length).toBe(2)
    expect(system).not.toContain('OUTSIDE-SECRET')
    expect(system).not.toContain('"format_version"')

    const files = team.host.instructionFiles('lead')
    expect(files.map((file) => [file.path, file.importedBy, file.problem])).toEqual([
      ['CLAUDE.md', null, null],
      ['docs/style.md', 'CLAUDE.md', null],
      ['docs/more/naming.md', 'docs/style.md', null],
      ['docs/style.md', 'docs/more/naming.md', 'imports itself through a cycle; read once'],
      [
        join(outside, 'secret.md'),
        'CLAUDE.md',
        'outside the workspace (instructions are read only from inside it); not read',
      ],
      [
        join(outside, 'secret.md'),
        'CLAUDE.md',
        'outside the workspace (instructions are read only from inside it); not read',
      ],
      ['.team/config.json', 'CLAUDE.md', "under .team/, the team's own files; not read"],
      ['missing.md', 'CLAUDE.md', 'not found'],
    ])
  })

  it('refuses an import reached through a symlink out of the workspace, and stops at depth 5', async () => {
    const { dir } = tempWorkspace()
    const outside = mkdtempSync(join(tmpdir(), 'agent-teams-outside-'))
    onTestFinished(() => rmSync(outside, { recursive: true, force: true }))
    write(outside, 'leak.md', 'LEAKED')
    symlinkSync(join(outside, 'leak.md'), join(dir, 'link.md'))
    const chain = ['CLAUDE.md', 'd1.md', 'd2.md', 'd3.md', 'd4.md', 'd5.md', 'd6.md']
    chain.forEach((name, index) => {
      const next = chain[index + 1]
      write(dir, name, `LEVEL-${index}${next ? ` @${next}` : ''}${index === 0 ? ' @link.md' : ''}`)
    })
    const script = queueScript({ lead: [text('ok')] })
    const team = await startHost(script, { workspace: dir })
    team.host.chat('hi')
    await team.host.whenIdle()
    const system = systemOf(requestsOf(team, 'lead')[0])
    expect(system).toContain('LEVEL-5')
    expect(system).not.toContain('LEVEL-6')
    expect(system).not.toContain('LEAKED')
    const problems = team.host.instructionFiles('lead').filter((file) => file.problem !== null)
    expect(problems.map((file) => [file.path, file.problem])).toEqual([
      ['d6.md', 'more than 5 imports deep; not read'],
      ['link.md', 'outside the workspace (instructions are read only from inside it); not read'],
    ])
  })

  it('cuts a file larger than its share of the context window, with a note', async () => {
    const { dir } = tempWorkspace()
    // A 20,000-token window: each file may take 5 %, 1,000 tokens, about 4,000 characters.
    write(dir, 'AGENTS.md', `HEAD ${'x'.repeat(10_000)} TAIL-MARKER`)
    const script = queueScript({ lead: [text('ok')] })
    const team = await startHost(script, {
      workspace: dir,
      endpoint: { contextWindow: 20_000 },
    })
    team.host.chat('hi')
    await team.host.whenIdle()
    const system = systemOf(requestsOf(team, 'lead')[0])
    expect(system).toContain('HEAD ')
    expect(system).not.toContain('TAIL-MARKER')
    expect(system).toContain(
      '[cut: 4,000 of 10,017 characters of AGENTS.md shown; it is larger than an instruction file',
    )
    expect(team.host.instructionFiles('lead')).toEqual([
      {
        path: 'AGENTS.md',
        kind: 'agents',
        importedBy: null,
        bytes: 10_017,
        shownChars: 4_000,
        totalChars: 10_017,
        problem: null,
      },
    ])
  })

  it('keeps all the files together within their share, and reads at most 100 files', async () => {
    const { dir } = tempWorkspace()
    // A 20,000-token window: 4,000 characters a file, 20,000 for all of them.
    const imports = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']
    const head = imports.map((name) => `@${name}.md`).join(' ')
    write(dir, 'CLAUDE.md', head)
    for (const name of imports)
      write(dir, `${name}.md`, `${name.toUpperCase()} ${'y'.repeat(3_995)}`)
    const script = queueScript({ lead: [text('ok')] })
    const team = await startHost(script, { workspace: dir, endpoint: { contextWindow: 20_000 } })
    team.host.chat('hi')
    await team.host.whenIdle()
    const system = systemOf(requestsOf(team, 'lead')[0])
    expect(system).toContain('A5 y')
    expect(system).toContain(
      `[cut: ${(20_000 - head.length - 4 * 3_998).toLocaleString('en-US')} of 3,998 characters of a5.md shown; the instruction files together may take 25 % of the context window.`,
    )
    expect(system).not.toContain('A6 y')
    expect(team.host.instructionFiles('lead').map((file) => file.shownChars)).toEqual([
      head.length,
      3_998,
      3_998,
      3_998,
      3_998,
      20_000 - head.length - 4 * 3_998,
      0,
    ])

    write(dir, 'CLAUDE.md', Array.from({ length: 150 }, (_, index) => `@m${index}.md`).join('\n'))
    const files = team.host.instructionFiles('lead')
    expect(files).toHaveLength(101)
    expect(files.at(-1)?.problem).toBe('more than 100 instruction files; the rest are not read')
  })

  it('includes the team note for every member and leaves out a note file it cannot read', async () => {
    const { dir } = tempWorkspace()
    const script = queueScript({ lead: [text('1'), text('2')], bob: [text('ok')] })
    const team = await startHost(script, { workspace: dir })
    expect(team.host.note.read()).toEqual({ text: '', updatedAt: null, problem: null })
    team.host.note.write('TEAM-NOTE-TEXT', 1)
    team.host.chat('hi')
    await team.host.spawn({ name: 'bob', role: 'tester', prompt: 'go' })
    await team.host.whenIdle()
    expect(systemOf(requestsOf(team, 'lead')[0])).toContain('TEAM-NOTE-TEXT')
    expect(systemOf(requestsOf(team, 'bob')[0])).toContain('TEAM-NOTE-TEXT')

    writeFileSync(join(dir, '.team/note.json'), '{"v": 9, "text": "FROM-THE-FUTURE"}')
    team.host.chat('again')
    await team.host.whenIdle()
    expect(systemOf(requestsOf(team, 'lead')[1])).not.toContain('FROM-THE-FUTURE')
    const note = team.host.note.read()
    expect(note.problem).toMatch(/note\.json is invalid: v is not a note format this version reads/)
    expect(team.host.instructionFiles('lead').at(-1)?.problem).toBe(note.problem)
    // A file it cannot read is never replaced silently.
    expect(() => team.host.note.write('new', 1)).toThrow(/move it aside first/)
  })
})
