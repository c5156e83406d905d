import { readFileSync, writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { queueScript, text } from '../../../../src/offline-model/script'
import { BUILTIN_TEMPLATES } from '../../../../src/runtime/templates/builtin-templates'
import { applyTemplate, templateFromTeam } from '../../../../src/runtime/templates/team-template'
import { TemplateStore } from '../../../../src/runtime/templates/template-store'
import type { TeamTemplate } from '../../../../src/shared/templates'
import { lastUserTexts, requestsOf, rosterOnDisk } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

function store(): TemplateStore {
  return TemplateStore.inConfigFolder(join(tempWorkspace('agent-teams-config-').dir, 'agent-teams'))
}

/** Runs `action` and returns the message it threw. */
function refusal(action: () => unknown): string {
  try {
    action()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected a refusal')
}

describe('team templates', () => {
  it('saves a running team, applies it to an empty workspace, and the members start', async () => {
    const script = queueScript({ alice: [text('coded')], bob: [text('tested')] })
    const first = await startHost(script)
    await first.host.spawn({
      name: 'alice',
      role: 'coder',
      prompt: 'Write the parser.',
      model: 'claude-opus-4-1',
      thinking: 2048,
    })
    await first.host.spawn({
      name: 'bob',
      role: 'tester',
      prompt: 'Test the parser.',
      planFirst: true,
      profile: 'reviewer',
      autoClaim: false,
    })
    first.host.setModel('lead', { model: 'claude-sonnet-4-5' })
    first.host.note.write('Ship small.', 1)
    await first.host.whenIdle()
    script.assertConsumed()

    const templates = store()
    const saved = templates.save(
      templateFromTeam(first.host.team.paths, {
        name: 'parser-team',
        description: 'two',
        nowSeconds: 100,
      }),
    )
    expect(saved).toEqual({
      format: 'agent-teams-template',
      v: 1,
      name: 'parser-team',
      description: 'two',
      lead: { model: 'claude-sonnet-4-5' },
      note: 'Ship small.',
      members: [
        {
          name: 'alice',
          role: 'coder',
          model: 'claude-opus-4-1',
          thinking: 2048,
          prompt: 'Write the parser.',
        },
        {
          name: 'bob',
          role: 'tester',
          prompt: 'Test the parser.',
          plan_first: true,
          profile: 'reviewer',
          auto_claim: false,
        },
      ],
      created_at: 100,
      updated_at: 100,
    } satisfies TeamTemplate)
    expect(templates.list().templates.map((entry) => [entry.template.name, entry.builtin])).toEqual(
      [...BUILTIN_TEMPLATES.map((template) => [template.name, true]), ['parser-team', false]],
    )

    const script2 = queueScript({ alice: [text('on it')], bob: [text('plan soon')] })
    const second = await startHost(script2)
    const summary = await applyTemplate(second.host, templates.get('parser-team').template)
    expect(summary).toContain("Spawned 'alice' (role: coder, model: claude-opus-4-1")
    await second.host.whenIdle()
    script2.assertConsumed()
    expect(lastUserTexts(requestsOf(second, 'alice')[0])).toEqual(['Write the parser.'])
    expect(lastUserTexts(requestsOf(second, 'bob')[0])[0]).toMatch(
      /^Test the parser\.\n\n\(You were spawned plan-first/,
    )
    expect(rosterOnDisk(second.workspace)).toMatchObject([
      { name: 'alice', role: 'coder', model: 'claude-opus-4-1', thinking: 2048 },
      { name: 'bob', role: 'tester', plan_first: true, profile: 'reviewer', auto_claim: false },
    ])
    expect(second.host.modelChoice('lead').model).toBe('claude-sonnet-4-5')
    expect(second.host.note.read().text).toBe('Ship small.')

    // A team with members is never replaced by a template.
    expect(
      await applyTemplate(second.host, templates.get('coder-tester').template).then(
        () => 'applied',
        (error: unknown) => (error as Error).message,
      ),
    ).toMatch(/already has members \(alice, bob\); apply a template to a new or empty workspace/)
  })

  it('round-trips a template through export and import, field for field', () => {
    const from = store()
    const original = from.save({
      ...structuredClone(BUILTIN_TEMPLATES[1] as TeamTemplate),
      name: 'my-trio',
      lead: { thinking: 4096 },
      note: 'n',
    })
    const exported = from.exportText('my-trio')
    const to = store()
    expect(to.importText(exported)).toEqual(original)
    expect(to.exportText('my-trio')).toBe(exported)
    expect(refusal(() => to.importText(exported))).toBe(
      'A template "my-trio" already exists; choose another name, or replace it.',
    )
    expect(to.importText(exported, { replace: true })).toEqual(original)
  })

  it('refuses invalid files clearly, and lists a broken file in the folder as a problem', () => {
    const templates = store()
    const valid = JSON.parse(templates.exportText('coder-tester')) as Record<string, unknown>
    const cases: [string, RegExp][] = [
      ['not json', /^The file is not valid JSON \(.*\); a team template is one JSON object/],
      ['[1, 2]', /^The file is not a valid team template: the template Invalid input/],
      [
        JSON.stringify({ ...valid, format: 'something-else' }),
        /format must be "agent-teams-template"/,
      ],
      [JSON.stringify({ ...valid, v: 2 }), /v is not a template version this app reads/],
      [JSON.stringify({ ...valid, name: '../evil' }), /name is not a template name/],
      [JSON.stringify({ ...valid, members: [] }), /members must hold at least one member/],
      [
        JSON.stringify({
          ...valid,
          name: 'x',
          members: [{ name: 'lead', role: 'boss', prompt: 'p' }],
        }),
        /members\.0\.name is reserved/,
      ],
      [
        JSON.stringify({
          ...valid,
          name: 'x',
          members: [
            { name: 'amy', role: 'a', prompt: 'p' },
            { name: 'amy', role: 'b', prompt: 'q', thinking: 12 },
          ],
        }),
        /members\.1\.thinking is below the API's minimum.*members\.1\.name "amy" appears twice/,
      ],
      [JSON.stringify({ ...valid, name: 'x', extra: 1 }), /Unrecognized key: "extra"/],
      [JSON.stringify({ ...valid }), /"coder-tester" is a built-in template; save yours under/],
    ]
    for (const [text, expected] of cases)
      expect(refusal(() => templates.importText(text))).toMatch(expected)
    expect(templates.list().templates.filter((entry) => !entry.builtin)).toEqual([])

    mkdirSync(templates.directory, { recursive: true })
    writeFileSync(join(templates.directory, 'broken.json'), '{"format": "agent-teams-template"')
    writeFileSync(
      join(templates.directory, 'renamed.json'),
      JSON.stringify({ ...valid, name: 'other' }),
    )
    const listed = templates.list()
    expect(listed.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(/broken\.json is not valid JSON/),
      expect.stringMatching(
        /renamed\.json holds the template "other"; rename the file to other\.json/,
      ),
    ])
    expect(listed.templates.every((entry) => entry.builtin)).toBe(true)
    // The broken file is left as it was.
    expect(readFileSync(join(templates.directory, 'broken.json'), 'utf8')).toBe(
      '{"format": "agent-teams-template"',
    )
  })

  it('deletes a saved template, never a built-in one', () => {
    const templates = store()
    templates.save({ ...(BUILTIN_TEMPLATES[0] as TeamTemplate), name: 'mine' })
    templates.delete('mine')
    expect(refusal(() => templates.get('mine'))).toBe(
      'There is no template "mine" (see the list of templates).',
    )
    expect(refusal(() => templates.delete('coder-tester'))).toBe(
      '"coder-tester" is a built-in template: it cannot be deleted.',
    )
    expect(refusal(() => templates.delete('../x'))).toMatch(/is not a template name/)
  })
})
