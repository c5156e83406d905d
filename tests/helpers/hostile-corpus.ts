import { MAX_LINE_BYTES } from '../../src/shared/messages'

/**
 * A corpus of hostile mailbox lines: every kind the mailbox refuses (torn JSON, wrong types, bad
 * names, oversized, binary, deep or huge extras, ids shaped like position ids, duplicates, …),
 * interleaved with valid messages of known ids (in every accepted spelling: CRLF, a BOM, U+2028,
 * a timestamp of 1e300, …). Deterministic: the same arguments give the same bytes.
 */
export interface CorpusLine {
  readonly bytes: Buffer
  /** The id it must be delivered with, or null when it must be rejected. */
  readonly validId: string | null
  readonly kind: string
}

export interface Corpus {
  readonly lines: readonly CorpusLine[]
  readonly validIds: readonly string[]
  readonly invalidCount: number
}

const message = (fields: Record<string, unknown>): string =>
  JSON.stringify({ type: 'message', from: 'lead', content: 'hi', timestamp: 1700000000, ...fields })

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`

/** Each kind of refused line, made from its index so that lines differ. */
const HOSTILE: readonly [string, (index: number) => string | Buffer][] = [
  ['torn JSON', (i) => `{"type":"message","from":"lead","content":"cut ${i}`],
  ['plain text', (i) => `hello ${i}, this is not JSON`],
  ['null', () => 'null'],
  ['an array', (i) => `[${i},2]`],
  ['a number', (i) => String(i)],
  ['a string', (i) => `"x${i}"`],
  ['a number as content', (i) => message({ id: `bad-${i}`, content: i })],
  ['a string timestamp', (i) => message({ id: `bad-${i}`, timestamp: 'NaN' })],
  ['an infinite timestamp', (i) => message({ id: `bad-${i}` }).replace('1700000000', '1e400')],
  ['an unknown type', (i) => message({ id: `bad-${i}`, type: 'exec' })],
  ['a path as sender', (i) => message({ id: `bad-${i}`, from: '../x' })],
  ['an uppercase sender', (i) => message({ id: `bad-${i}`, from: 'LEAD' })],
  ['no content', (i) => message({ id: `bad-${i}`, content: undefined })],
  ['no from', (i) => message({ id: `bad-${i}`, from: undefined })],
  ['a newer version', (i) => message({ id: `bad-${i}`, v: 2 })],
  ['another inbox', (i) => message({ id: `bad-${i}`, to: 'bob' })],
  ['an empty id', () => message({ id: '' })],
  ['a position-shaped id', (i) => message({ id: `p1-${i * 7}` })],
  [
    'a __proto__ key',
    (i) => message({ id: `bad-${i}` }).replace('{', '{"__proto__":{"admin":true},'),
  ],
  [
    'an escaped __proto__ key',
    (i) => message({ id: `bad-${i}` }).replace('{', '{"\\u005f_proto__":1,'),
  ],
  [
    'an extra nested 6,000 deep',
    (i) => message({ id: `bad-${i}` }).replace('{', `{"deep":${nested(6000)},`),
  ],
  [
    'an extra of 20,000 values',
    (i) => message({ id: `bad-${i}`, many: new Array(20_000).fill(0) }),
  ],
  ['invalid UTF-8', (i) => Buffer.from([0x7b, 0xff, 0xfe, 0x80, i % 256, 0x7d])],
  ['a BOM and garbage', () => '\ufeffnot json'],
  ['NUL bytes', () => '\u0000\u0000\u0000'],
  ['a U+2028 outside strings', (i) => `{"type":"message",\u2028"from":"lead","id":"bad-${i}"}`],
]

/** A valid line of id `id`, spelled the way `index` picks. */
function validLine(id: string, index: number): { text: string | Buffer; kind: string } {
  switch (index % 7) {
    case 0:
      return { text: message({ id, content: `plain ${index}` }), kind: 'plain' }
    case 1:
      return { text: `${message({ id, content: 'crlf' })}\r`, kind: 'CRLF' }
    case 2:
      return { text: `\ufeff${message({ id, content: 'bom' })}`, kind: 'a BOM' }
    case 3:
      return { text: message({ id, content: 'line\u2028separator\u2029para' }), kind: 'U+2028' }
    case 4:
      return { text: message({ id, timestamp: 1e300 }), kind: 'timestamp 1e300' }
    case 5:
      return { text: message({ id, content: 'ünï 🧪 ✓', timestamp: -1e300 }), kind: 'unicode' }
    default:
      return {
        text: message({ id, extra: JSON.parse(nested(10)) as unknown }),
        kind: 'a nested extra',
      }
  }
}

/**
 * `hostileCount` refused lines (at least one of each kind, two oversized ones among them when
 * `oversized`), with a valid line after every `every` of them and duplicates of earlier valid
 * ids.
 */
export function hostileCorpus(
  options: { hostileCount?: number; every?: number; oversized?: boolean; idPrefix?: string } = {},
): Corpus {
  const hostileCount = options.hostileCount ?? 2000
  const every = options.every ?? 3
  const prefix = options.idPrefix ?? 'm-valid'
  const lines: CorpusLine[] = []
  const validIds: string[] = []
  const push = (text: string | Buffer, validId: string | null, kind: string): void => {
    const body = typeof text === 'string' ? Buffer.from(text) : text
    lines.push({ bytes: Buffer.concat([body, Buffer.from('\n')]), validId, kind })
  }
  for (let index = 0; index < hostileCount; index++) {
    if (options.oversized !== false && (index === 100 || index === 1500)) {
      push(
        message({ id: `big-${index}`, content: 'x'.repeat(MAX_LINE_BYTES + 10) }),
        null,
        'oversized',
      )
    } else if (index % 50 === 49 && validIds.length > 0) {
      const earlier = validIds[(index * 13) % validIds.length] as string
      push(message({ id: earlier, content: 'a repeat' }), null, 'a duplicate id')
    } else {
      const [kind, make] = HOSTILE[index % HOSTILE.length] as (typeof HOSTILE)[number]
      push(make(index), null, kind)
    }
    if (index % every === every - 1) {
      const id = `${prefix}-${validIds.length}`
      const { text, kind } = validLine(id, validIds.length)
      validIds.push(id)
      push(text, id, kind)
    }
  }
  return { lines, validIds, invalidCount: lines.filter((line) => line.validId === null).length }
}

/** The corpus's bytes, in `parts` chunks of whole lines (for appending while a reader runs). */
export function corpusChunks(corpus: Corpus, parts: number): Buffer[] {
  const size = Math.ceil(corpus.lines.length / parts)
  const chunks: Buffer[] = []
  for (let start = 0; start < corpus.lines.length; start += size)
    chunks.push(Buffer.concat(corpus.lines.slice(start, start + size).map((line) => line.bytes)))
  return chunks
}
