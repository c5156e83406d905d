import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import { text } from '../../../src/offline-model/script'
import { agentScript, lastUserTexts, requestsOf, rosterOnDisk } from '../../helpers/agents'
import { cli } from '../../helpers/cli'
import { startHost } from '../../helpers/host'
import { tempWorkspace } from '../../helpers/workspace'

/** A config folder of the test's own: templates and settings go there. */
function isolateConfig(): string {
  const { dir } = tempWorkspace('agent-teams-config-')
  vi.stubEnv('XDG_CONFIG_HOME', dir)
  onTestFinished(() => {
    vi.unstubAllEnvs()
  })
  return join(dir, 'agent-teams')
}

describe('agent-teams team (templates)', () => {
  it('saves the running team, lists, exports, imports, applies in the running team and deletes', async () => {
    const config = isolateConfig()
    const team = await startHost(agentScript(() => text('Done.')))
    await team.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Write the parser.',
      thinking: 1024,
    })
    await team.host.whenIdle()
    const workspace = ['--workspace', team.workspace]

    const saved = await cli(['team', 'save', 'mine', '--description', 'just alice', ...workspace])
    expect(saved.stderr).toBe('')
    expect(saved.stdout).toBe(
      `Saved the team of ${team.workspace} as the template "mine": alice (coder).\n`,
    )
    expect(existsSync(join(config, 'templates/mine.json'))).toBe(true)
    expect((await cli(['team', 'save', 'mine', ...workspace])).stderr).toBe(
      'agent-teams team: A template "mine" already exists; choose another name, or add --replace.\n',
    )

    const listed = await cli(['team', 'list'])
    expect(listed.lines).toEqual([
      expect.stringMatching(/^coder-tester \(built-in\): alice \(coder\), bob \(tester\) — /),
      expect.stringMatching(/^frontend-backend-reviewer \(built-in\): front/),
      expect.stringMatching(/^researcher-writer \(built-in\): sage \(researcher\)/),
      'mine: alice (coder) — just alice',
    ])

    const file = join(tempWorkspace().dir, 'mine.json')
    expect((await cli(['team', 'export', 'mine', '--file', file])).code).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      format: 'agent-teams-template',
      v: 1,
      name: 'mine',
      members: [{ name: 'alice', role: 'coder', thinking: 1024, prompt: 'Write the parser.' }],
    })
    expect((await cli(['team', 'delete', 'mine'])).stdout).toBe('Deleted the template "mine".\n')
    expect((await cli(['team', 'apply', 'mine', ...workspace])).stderr).toBe(
      'agent-teams team: There is no template "mine" (see the list of templates).\n',
    )
    const imported = await cli(['team', 'import', '--file', file])
    expect(imported.stdout).toBe('Imported the template "mine": alice (coder).\n')

    // The running team already has alice: refused.
    const full = await cli(['team', 'apply', 'coder-tester', ...workspace])
    expect(full.code).toBe(1)
    expect(full.stderr).toMatch(/already has members \(alice\); apply a template to a new or empty/)

    const fresh = await startHost(agentScript(() => text('Ready.')))
    const applied = await cli(['team', 'apply', 'mine', '--workspace', fresh.workspace])
    expect(applied.stderr).toBe('')
    expect(applied.stdout).toBe(
      'Applied the template "mine" to the running team: spawned alice (coder).\n',
    )
    await fresh.host.whenIdle()
    expect(lastUserTexts(requestsOf(fresh, 'alice')[0])).toEqual(['Write the parser.'])
    expect(requestsOf(fresh, 'alice')[0]?.body.thinking).toEqual({
      type: 'enabled',
      budget_tokens: 1024,
    })
  })

  it('applies a template to a new workspace with no team running, as chat runs one', async () => {
    isolateConfig()
    const server = await OfflineModelServer.start({
      script: agentScript(() => text('Ready.')),
      apiKey: 'test-key',
    })
    onTestFinished(() => server.close())
    vi.stubEnv('ANTHROPIC_API_KEY', 'test-key')
    vi.stubEnv('ANTHROPIC_BASE_URL', server.url)
    vi.stubEnv('MODEL_ID', 'offline-test')
    const { dir } = tempWorkspace()
    const result = await cli(['team', 'apply', 'researcher-writer', '--workspace', dir])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('Applied the template "researcher-writer":')
    expect(result.stdout).toContain('[sage] Ready.')
    expect(rosterOnDisk(dir).map((member) => [member.name, member.role, member.status])).toEqual([
      ['sage', 'researcher', 'idle'],
      ['quill', 'writer', 'idle'],
    ])
  })

  it('refuses an invalid file and usage mistakes clearly', async () => {
    isolateConfig()
    const { dir } = tempWorkspace()
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, JSON.stringify({ format: 'agent-teams-template', v: 1, name: 'x' }))
    const refused = await cli(['team', 'import', '--file', bad])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(
      `agent-teams team: ${bad} is not a valid team template: members Invalid input: expected array, received undefined.\n`,
    )
    writeFileSync(bad, '{')
    expect((await cli(['team', 'import', '--file', bad])).stderr).toMatch(
      new RegExp(`^agent-teams team: ${bad} is not valid JSON`),
    )
    expect((await cli(['team', 'import', '--file', join(dir, 'none.json')])).stderr).toBe(
      `agent-teams team: There is no file ${join(dir, 'none.json')}.\n`,
    )
    const usage = await cli(['team', 'frobnicate'])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toMatch(/^agent-teams team: expected "team save <name>"/)
    expect((await cli(['team', 'save', '--workspace', dir])).code).toBe(2)
    const empty = await cli(['team', 'save', 'x', '--workspace', dir])
    expect(empty.stderr).toBe(
      `agent-teams team: The team in ${dir} has no members to save; spawn teammates first.\n`,
    )
  })
})

describe('agent-teams note', () => {
  it('shows, sets, edits from a file and removes the team note', async () => {
    const { dir } = tempWorkspace()
    const workspace = ['--workspace', dir]
    expect((await cli(['note', ...workspace])).stdout).toBe(`No team note in ${dir}.\n`)
    expect((await cli(['note', 'set', 'Ship small.', ...workspace])).stdout).toBe(
      'Saved the team note (11 characters); every agent has it from its next model call.\n',
    )
    expect((await cli(['note', 'show', ...workspace])).stdout).toBe('Ship small.\n')
    const file = join(dir, 'note.md')
    writeFileSync(file, 'Line one.\nLine two.')
    expect((await cli(['note', 'edit', '--file', file, ...workspace])).code).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, '.team/note.json'), 'utf8'))).toMatchObject({
      v: 1,
      text: 'Line one.\nLine two.',
    })
    expect((await cli(['note', 'set', '', ...workspace])).stdout).toBe('Removed the team note.\n')
    expect((await cli(['note', 'edit', ...workspace])).code).toBe(2)
    writeFileSync(join(dir, '.team/note.json'), '[]')
    const broken = await cli(['note', ...workspace])
    expect(broken.code).toBe(1)
    expect(broken.stderr).toMatch(
      /note\.json is invalid: note Invalid input.*Fix it or move it aside/,
    )
  })
})
