// A minimal reader of source maps (v3, VLQ mappings): enough to name the original file and
// function of a position in the minified renderer bundle that Chromium's profiler reports.
import { readFileSync } from 'node:fs'

interface RawMap {
  sources: string[]
  names: string[]
  mappings: string
}
/** [generatedColumn, source, originalLine, originalColumn, name] */
type Segment = [number, number, number, number, number]

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DIGIT = new Map([...BASE64].map((char, index) => [char, index]))

function decodeLine(text: string, state: number[]): Segment[] {
  const segments: Segment[] = []
  let column = 0
  for (const part of text.split(',')) {
    if (part.length === 0) continue
    const values: number[] = []
    let value = 0
    let shift = 0
    for (const char of part) {
      const digit = DIGIT.get(char) ?? 0
      value += (digit & 31) << shift
      if (digit & 32) shift += 5
      else {
        values.push(value & 1 ? -(value >>> 1) : value >>> 1)
        value = 0
        shift = 0
      }
    }
    column += values[0] ?? 0
    if (values.length >= 4) {
      state[0] = (state[0] ?? 0) + (values[1] ?? 0)
      state[1] = (state[1] ?? 0) + (values[2] ?? 0)
      state[2] = (state[2] ?? 0) + (values[3] ?? 0)
      if (values.length >= 5) state[3] = (state[3] ?? 0) + (values[4] ?? 0)
      segments.push([
        column,
        state[0] ?? 0,
        state[1] ?? 0,
        state[2] ?? 0,
        values.length >= 5 ? (state[3] ?? 0) : -1,
      ])
    }
  }
  return segments
}

export class SourceMap {
  private readonly lines: Segment[][]
  private readonly sources: string[]
  private readonly names: string[]

  constructor(path: string) {
    const raw = JSON.parse(readFileSync(path, 'utf8')) as RawMap
    const state = [0, 0, 0, 0]
    this.lines = raw.mappings.split(';').map((line) => decodeLine(line, state))
    this.sources = raw.sources.map((source) => source.replace(/^(\.\.\/)+/, ''))
    this.names = raw.names
  }

  /** The original source and name at a 0-based generated line and column. */
  lookup(line: number, column: number): { source: string; name: string | null } | null {
    const segments = this.lines[line]
    if (!segments || segments.length === 0) return null
    let low = 0
    let high = segments.length - 1
    let found: Segment | null = null
    while (low <= high) {
      const middle = (low + high) >> 1
      const segment = segments[middle] as Segment
      if (segment[0] <= column) {
        found = segment
        low = middle + 1
      } else high = middle - 1
    }
    if (found === null) return null
    return {
      source: this.sources[found[1]] ?? 'unknown',
      name: found[4] >= 0 && found[0] === column ? (this.names[found[4]] ?? null) : null,
    }
  }
}
