import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const SOURCE = join(__dirname, '..', '..', '..', 'src')

/**
 * Ways of deciding from a status's words instead of its fields (`cause`, `error_code`): a
 * prefix to strip or test, a reason compared or searched.
 */
const PROSE_PARSING: readonly RegExp[] = [
  /PAUSED_REASON_PREFIX/,
  /startsWith\(\s*['"`]paused/,
  /\b(?:reason|statusReason)\??\.(?:startsWith|endsWith|includes|match|search)\(/,
  /\.test\(\s*[\w.?]*(?:reason|statusReason)\s*\)/,
  /\b(?:event|agent|change|view|member)\.(?:reason|statusReason)\s*[!=]==?\s*['"`]/,
]

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) ? [path] : []
  })
}

describe('status facts cross the contract as fields', () => {
  it('no code in src/ decides anything from a status reason’s words', () => {
    const found: string[] = []
    for (const file of sourceFiles(SOURCE)) {
      const lines = readFileSync(file, 'utf8').split('\n')
      lines.forEach((line, index) => {
        if (PROSE_PARSING.some((pattern) => pattern.test(line)))
          found.push(`${relative(SOURCE, file)}:${index + 1}: ${line.trim()}`)
      })
    }
    expect(found).toEqual([])
  })

  it('the patterns catch what they are for', () => {
    const caught = [
      "if (reason?.startsWith('paused:') === true)",
      'reason.slice(PAUSED_REASON_PREFIX.length)',
      "if (event.status === 'idle' && event.reason === 'stopped')",
      'reason.includes(alert.message)',
      '/^paused/.test(event.reason)',
    ]
    for (const line of caught)
      expect(
        PROSE_PARSING.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true)
    expect(PROSE_PARSING.some((pattern) => pattern.test("event.cause === 'stopped'"))).toBe(false)
  })
})
