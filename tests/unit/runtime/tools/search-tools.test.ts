import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { globTool, grepTool } from '../../../../src/runtime/tools/search-tools'
import type { ToolContext } from '../../../../src/runtime/tools/types'
import { tempWorkspace } from '../../../helpers/workspace'

function setup(): { dir: string; context: ToolContext } {
  const { dir } = tempWorkspace('agent-teams-search-')
  mkdirSync(join(dir, 'src', 'lib'), { recursive: true })
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const answer = 42\n')
  writeFileSync(join(dir, 'src', 'lib', 'b.ts'), 'const secretless = "Answer"\n')
  writeFileSync(join(dir, 'README.md'), '# answer\n')
  writeFileSync(join(dir, 'binary.bin'), Buffer.from([0x61, 0x6e, 0, 0x73]))
  mkdirSync(join(dir, '.team', 'inbox'), { recursive: true })
  writeFileSync(join(dir, '.team', 'inbox', 'lead.jsonl'), '{"content":"answer"}\n')
  const outside = mkdtempSync(join(tmpdir(), 'agent-teams-outside-'))
  writeFileSync(join(outside, 'leak.ts'), 'answer outside\n')
  symlinkSync(outside, join(dir, 'linked'))
  symlinkSync(join(outside, 'leak.ts'), join(dir, 'src', 'leak.ts'))
  return { dir, context: { workspace: dir, agent: 'rita', signal: new AbortController().signal } }
}

describe('grep and glob', () => {
  it('glob lists matching workspace files, never .team nor what a symlink leads to', async () => {
    const { context } = setup()
    const ts = await globTool.run({ pattern: '**/*.ts' }, context)
    expect(ts).toEqual({ content: 'src/a.ts\nsrc/lib/b.ts', isError: false })
    expect((await globTool.run({ pattern: '**/*.jsonl' }, context)).content).toBe(
      'No files match **/*.jsonl.',
    )
    expect((await globTool.run({ pattern: '*.ts', path: 'src/lib' }, context)).content).toBe(
      'src/lib/b.ts',
    )
  })

  it('grep answers path:line: text, case-insensitive on request, skipping binaries and links', async () => {
    const { context } = setup()
    expect((await grepTool.run({ pattern: 'answer' }, context)).content).toBe(
      'README.md:1: # answer\nsrc/a.ts:1: export const answer = 42',
    )
    expect(
      (await grepTool.run({ pattern: 'answer', ignore_case: true, glob: 'src/**' }, context))
        .content,
    ).toBe('src/a.ts:1: export const answer = 42\nsrc/lib/b.ts:1: const secretless = "Answer"')
  })

  it('refuses paths outside the workspace or in .team, and a bad expression, as is_error', async () => {
    const { context } = setup()
    for (const path of ['..', '/etc', '.team', 'linked']) {
      const outcome = await grepTool.run({ pattern: 'x', path }, context)
      expect(outcome.isError, path).toBe(true)
    }
    const bad = await grepTool.run({ pattern: '(' }, context)
    expect(bad.isError).toBe(true)
    expect(bad.content).toMatch(/^grep: Invalid regular expression/)
  })
})
