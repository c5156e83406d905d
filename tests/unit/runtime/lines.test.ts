import { appendFileSync, writeFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { scanSegment, type ScannedLine } from '../../../src/runtime/mailbox/lines'
import { MAX_LINE_BYTES } from '../../../src/shared/messages'
import { tempWorkspace } from '../../helpers/workspace'

function line(content: string, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ type: 'message', from: 'lead', content, timestamp: 1, ...extra })}\n`
}

function inboxFile(data: string | Buffer): string {
  const { paths } = tempWorkspace()
  const path = `${paths.workspace}/alice.jsonl`
  writeFileSync(path, data)
  return path
}

function contents(lines: readonly ScannedLine[]): string[] {
  return lines.map((scanned) =>
    scanned.kind === 'message' ? scanned.message.content : `!${scanned.reason}`,
  )
}

describe('scanSegment', () => {
  it('reads nothing from a file that does not exist', async () => {
    const { paths } = tempWorkspace()
    expect(await scanSegment(`${paths.workspace}/none.jsonl`, 'alice', 1, 0)).toEqual({
      lines: [],
      next: 0,
      pendingBytes: 0,
      atEnd: true,
    })
  })

  it('gives every line its byte position and end, and positions ids from the segment', async () => {
    const first = line('one')
    const second = line('two')
    const path = inboxFile(first + second)
    const scan = await scanSegment(path, 'alice', 3, 0)
    expect(scan.lines.map((scanned) => [scanned.position, scanned.end])).toEqual([
      [{ segment: 3, offset: 0 }, first.length],
      [{ segment: 3, offset: first.length }, first.length + second.length],
    ])
    expect(scan.lines.map((scanned) => scanned.kind === 'message' && scanned.message.id)).toEqual([
      'p3-0',
      `p3-${first.length}`,
    ])
    expect(scan.next).toBe(first.length + second.length)
    expect(scan.pendingBytes).toBe(0)
  })

  it('starts at `from` and reads nothing before it', async () => {
    const first = line('one')
    const path = inboxFile(`${first}${line('two')}`)
    const scan = await scanSegment(path, 'alice', 1, first.length)
    expect(contents(scan.lines)).toEqual(['two'])
  })

  it('leaves a torn last line for later and reports its bytes as pending', async () => {
    const first = line('one')
    const torn = line('two').slice(0, 20)
    const path = inboxFile(first + torn)
    const scan = await scanSegment(path, 'alice', 1, 0)
    expect(contents(scan.lines)).toEqual(['one'])
    expect(scan.next).toBe(first.length)
    expect(scan.pendingBytes).toBe(torn.length)
    appendFileSync(path, line('two').slice(20))
    const again = await scanSegment(path, 'alice', 1, scan.next)
    expect(contents(again.lines)).toEqual(['two'])
    expect(again.pendingBytes).toBe(0)
  })

  it('tolerates CRLF and blank lines (also whitespace-only and CR-only ones)', async () => {
    const path = inboxFile(`\n${line('one').replace('\n', '\r\n')}\n\r\n   \n${line('two')}\n`)
    const scan = await scanSegment(path, 'alice', 1, 0)
    expect(contents(scan.lines)).toEqual(['one', 'two'])
    expect(scan.pendingBytes).toBe(0)
  })

  it('rejects a line of invalid UTF-8, keeping its raw bytes', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"type":"message","from":"lead","content":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('","timestamp":1}'),
    ])
    const path = inboxFile(Buffer.concat([bad, Buffer.from(`\n${line('after')}`)]))
    const scan = await scanSegment(path, 'alice', 1, 0)
    expect(contents(scan.lines)).toEqual(['!not valid UTF-8', 'after'])
    const [rejected] = scan.lines
    expect(rejected?.kind === 'invalid' && Buffer.from(rejected.rawBase64, 'base64')).toEqual(bad)
  })

  it('gives byte positions, not character positions, to lines after multi-byte text', async () => {
    const lines = [line('café ☕ 你好 😀'), line('two').replace('\n', '\r\n'), line('three')]
    const path = inboxFile(lines.join(''))
    const scan = await scanSegment(path, 'alice', 1, 0)
    const starts = [0, Buffer.byteLength(lines[0]!), Buffer.byteLength(lines[0]! + lines[1]!)]
    expect(contents(scan.lines)).toEqual(['café ☕ 你好 😀', 'two', 'three'])
    expect(scan.lines.map((scanned) => scanned.position.offset)).toEqual(starts)
    expect(scan.lines.map((scanned) => scanned.end)).toEqual([
      ...starts.slice(1),
      Buffer.byteLength(lines.join('')),
    ])
    expect(scan.next).toBe(Buffer.byteLength(lines.join('')))
  })

  it('rejects only the line of invalid UTF-8 among valid ones, each at its own position', async () => {
    const before = Buffer.from(line('before é'))
    const bad = Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])
    const after = Buffer.from(line('after'))
    const path = inboxFile(Buffer.concat([before, bad, after]))
    const scan = await scanSegment(path, 'alice', 1, 0)
    expect(contents(scan.lines)).toEqual(['before é', '!not valid UTF-8', 'after'])
    expect(scan.lines.map((scanned) => scanned.position.offset)).toEqual([
      0,
      before.length,
      before.length + bad.length,
    ])
  })

  it('reads a line that starts with a byte-order mark as if it had none', async () => {
    const path = inboxFile(`\ufeff${line('marked')}${line('plain')}`)
    const scan = await scanSegment(path, 'alice', 1, 0)
    expect(contents(scan.lines)).toEqual(['marked', 'plain'])
  })

  it('rejects a line over 1 MiB with a preview of its start, and reads on past it', async () => {
    const huge = line('z'.repeat(MAX_LINE_BYTES + 10))
    const path = inboxFile(`${line('before')}${huge}${line('after')}`)
    const scan = await scanSegment(path, 'alice', 1, 0)
    expect(contents(scan.lines)).toEqual([
      'before',
      expect.stringMatching(/^!line of \d+ bytes is over the 1048576-byte limit/),
      'after',
    ])
    const rejected = scan.lines[1]
    expect(rejected?.kind === 'invalid' && Buffer.from(rejected.rawBase64, 'base64').length).toBe(
      4096,
    )
    expect(
      rejected?.kind === 'invalid' && Buffer.from(rejected.rawBase64, 'base64').toString(),
    ).toBe(huge.slice(0, 4096))
  })

  it('rejects a line several MiB long without a newline in reach, once it is complete', async () => {
    const huge = 'q'.repeat(3 * MAX_LINE_BYTES)
    const path = inboxFile(`${line('before')}${huge}`)
    const torn = await scanSegment(path, 'alice', 1, 0)
    expect(contents(torn.lines)).toEqual(['before'])
    expect(torn.pendingBytes).toBe(huge.length)
    appendFileSync(path, `\n${line('after')}`)
    const scan = await scanSegment(path, 'alice', 1, torn.next)
    expect(contents(scan.lines)).toEqual([
      `!line of ${huge.length} bytes is over the 1048576-byte limit (the first 4096 bytes are kept here; the line stays in the inbox file)`,
      'after',
    ])
  })

  it('accepts a line of exactly 1 MiB, and one of 1 MiB followed by a CR', async () => {
    const head = '{"type":"message","from":"lead","timestamp":1,"content":"'
    const exact = `${head}${'k'.repeat(MAX_LINE_BYTES - head.length - 2)}"}`
    expect(Buffer.byteLength(exact)).toBe(MAX_LINE_BYTES)
    const path = inboxFile(`${exact}\n${exact}\r\n`)
    const scan = await scanSegment(path, 'alice', 1, 0)
    expect(scan.lines.map((scanned) => scanned.kind)).toEqual(['message', 'message'])
  })

  it('stops after about maxBytes and carries on from `next`', async () => {
    const many = Array.from({ length: 40_000 }, (_, index) => line(`n${index}`)).join('')
    expect(many.length).toBeGreaterThan(2 * 1024 * 1024)
    const path = inboxFile(many)
    const first = await scanSegment(path, 'alice', 1, 0, 1)
    expect(first.lines.length).toBeGreaterThan(0)
    expect(first.lines.length).toBeLessThan(40_000)
    const seen = contents(first.lines)
    let next = first.next
    while (next < many.length) {
      const scan = await scanSegment(path, 'alice', 1, next, 1)
      seen.push(...contents(scan.lines))
      next = scan.next
    }
    expect(seen).toEqual(Array.from({ length: 40_000 }, (_, index) => `n${index}`))
  })
})
