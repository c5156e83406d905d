import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  editFileTool,
  readFileTool,
  writeFileTool,
} from '../../../../src/runtime/tools/basic-tools'
import type { ToolContext } from '../../../../src/runtime/tools/types'
import { tempWorkspace } from '../../../helpers/workspace'

function setup(): { dir: string; context: ToolContext } {
  const { dir } = tempWorkspace('agent-teams-tools-')
  return { dir, context: { workspace: dir, agent: 'alice', signal: new AbortController().signal } }
}

describe('write_file', () => {
  it('creates the file and its folders and says how many bytes it wrote', async () => {
    const { dir, context } = setup()
    const outcome = await writeFileTool.run({ path: 'notes/day/a.txt', content: 'héllo' }, context)
    expect(outcome).toEqual({ content: 'Wrote 6 bytes to notes/day/a.txt', isError: false })
    expect(readFileSync(join(dir, 'notes/day/a.txt'), 'utf8')).toBe('héllo')
  })

  it('replaces an existing file and leaves no temp file behind', async () => {
    const { dir, context } = setup()
    writeFileSync(join(dir, 'a.txt'), 'old')
    await writeFileTool.run({ path: 'a.txt', content: 'new' }, context)
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('new')
    expect(readdirSync(dir)).toEqual(['a.txt'])
  })

  it('refuses paths outside the workspace and under .team/, writing nothing', async () => {
    const { dir, context } = setup()
    const escape = await writeFileTool.run({ path: '../escaped.txt', content: 'x' }, context)
    expect(escape.isError).toBe(true)
    expect(escape.content).toContain('outside the workspace')
    expect(existsSync(join(dirname(dir), 'escaped.txt'))).toBe(false)

    const forged = await writeFileTool.run(
      { path: '.team/inbox/bob.jsonl', content: '{"type":"message","from":"lead"}\n' },
      context,
    )
    expect(forged.isError).toBe(true)
    expect(forged.content).toContain('send_message')
    expect(existsSync(join(dir, '.team'))).toBe(false)
  })

  it('says so when a folder is in the way', async () => {
    const { dir, context } = setup()
    mkdirSync(join(dir, 'folder'))
    const outcome = await writeFileTool.run({ path: 'folder', content: 'x' }, context)
    expect(outcome).toEqual({ content: 'folder is a folder, not a file.', isError: true })
  })
})

describe('read_file', () => {
  it('reads a text file whole', async () => {
    const { dir, context } = setup()
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\n')
    expect(await readFileTool.run({ path: 'a.txt' }, context)).toEqual({
      content: 'one\ntwo\n',
      isError: false,
    })
  })

  it('reads only the first `limit` lines and says how many more there are', async () => {
    const { dir, context } = setup()
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\nfour\n')
    const outcome = await readFileTool.run({ path: 'a.txt', limit: 2 }, context)
    expect(outcome.content).toBe('one\ntwo\n… (2 more lines)')
    expect((await readFileTool.run({ path: 'a.txt', limit: 4 }, context)).content).toBe(
      'one\ntwo\nthree\nfour\n',
    )
  })

  it('reports missing files, folders, binary files and files over 10 MB as errors', async () => {
    const { dir, context } = setup()
    mkdirSync(join(dir, 'folder'))
    writeFileSync(join(dir, 'image.bin'), Buffer.from([0x89, 0x50, 0x00, 0x47]))
    writeFileSync(join(dir, 'huge.log'), '')
    truncateSync(join(dir, 'huge.log'), 11 * 1024 * 1024)

    const missing = await readFileTool.run({ path: 'missing.txt' }, context)
    expect(missing).toEqual({ content: 'missing.txt does not exist.', isError: true })
    expect((await readFileTool.run({ path: 'folder' }, context)).content).toContain('is a folder')
    expect((await readFileTool.run({ path: 'image.bin' }, context)).content).toContain('binary')
    const huge = await readFileTool.run({ path: 'huge.log' }, context)
    expect(huge.isError).toBe(true)
    expect(huge.content).toContain('huge.log is 11 MB')
  })

  it('refuses .team/config.json and paths outside', async () => {
    const { dir, context } = setup()
    mkdirSync(join(dir, '.team'))
    writeFileSync(join(dir, '.team', 'config.json'), '{}')
    const roster = await readFileTool.run({ path: '.team/config.json' }, context)
    expect(roster.isError).toBe(true)
    expect(roster.content).toContain('read_inbox')
    expect((await readFileTool.run({ path: '/etc/passwd' }, context)).isError).toBe(true)
  })
})

describe('edit_file', () => {
  it('replaces the one occurrence, keeping `$` patterns literal and the file mode', async () => {
    const { dir, context } = setup()
    const script = join(dir, 'run.sh')
    writeFileSync(script, '#!/bin/sh\necho hello\n')
    chmodSync(script, 0o755)
    const outcome = await editFileTool.run(
      { path: 'run.sh', old_text: 'echo hello', new_text: 'echo "$& $1"' },
      context,
    )
    expect(outcome).toEqual({ content: 'Edited run.sh', isError: false })
    expect(readFileSync(script, 'utf8')).toBe('#!/bin/sh\necho "$& $1"\n')
    expect(statSync(script).mode & 0o777).toBe(0o755)
    expect(readdirSync(dir)).toEqual(['run.sh'])
  })

  it('refuses old_text that is missing, ambiguous or empty, changing nothing', async () => {
    const { dir, context } = setup()
    writeFileSync(join(dir, 'a.txt'), 'x = 1\nx = 1\n')
    const notFound = await editFileTool.run(
      { path: 'a.txt', old_text: 'y = 2', new_text: 'y = 3' },
      context,
    )
    expect(notFound.isError).toBe(true)
    expect(notFound.content).toContain('old_text was not found in a.txt')
    const ambiguous = await editFileTool.run(
      { path: 'a.txt', old_text: 'x = 1', new_text: 'x = 2' },
      context,
    )
    expect(ambiguous.isError).toBe(true)
    expect(ambiguous.content).toContain('old_text occurs 2 times in a.txt')
    const empty = await editFileTool.run({ path: 'a.txt', old_text: '', new_text: 'z' }, context)
    expect(empty.isError).toBe(true)
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('x = 1\nx = 1\n')
  })

  it('counts overlapping occurrences as ambiguous', async () => {
    const { dir, context } = setup()
    writeFileSync(join(dir, 'a.txt'), 'aaa')
    const outcome = await editFileTool.run(
      { path: 'a.txt', old_text: 'aa', new_text: 'b' },
      context,
    )
    expect(outcome.content).toContain('occurs 2 times')
  })

  it('reports a missing file and refuses .team/', async () => {
    const { context } = setup()
    const missing = await editFileTool.run(
      { path: 'nope.txt', old_text: 'a', new_text: 'b' },
      context,
    )
    expect(missing).toEqual({ content: 'nope.txt does not exist.', isError: true })
    const forged = await editFileTool.run(
      { path: '.team/config.json', old_text: 'a', new_text: 'b' },
      context,
    )
    expect(forged.isError).toBe(true)
    expect(forged.content).toContain('.team/')
  })
})

describe('invalid input', () => {
  it('goes back to the model as an error naming the field', async () => {
    const { context } = setup()
    expect(await readFileTool.run({}, context)).toEqual({
      content: 'Invalid input for read_file: path: expected string, received undefined',
      isError: true,
    })
    expect(await writeFileTool.run({ path: 'a.txt', content: 42 }, context)).toEqual({
      content: 'Invalid input for write_file: content: expected string, received number',
      isError: true,
    })
    const badLimit = await readFileTool.run({ path: 'a.txt', limit: 0 }, context)
    expect(badLimit.content).toMatch(/^Invalid input for read_file: limit: /)
    const notObject = await editFileTool.run(null, context)
    expect(notObject.content).toBe(
      'Invalid input for edit_file: (input): expected object, received null',
    )
  })
})
