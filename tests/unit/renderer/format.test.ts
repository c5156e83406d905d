import { describe, expect, it } from 'vitest'
import {
  describeTokens,
  formatMillis,
  formatPercent,
  formatTokens,
  formatNumber,
  formatSeconds,
} from '../../../src/renderer/ui/format'

describe('formatting', () => {
  const noon = new Date(2026, 11, 2, 12, 0, 0)

  it('shows the time alone for today, the day too for an earlier day', () => {
    const today = formatMillis(new Date(2026, 11, 2, 9, 5, 7).getTime(), noon)
    const earlier = formatMillis(new Date(2026, 10, 28, 9, 5, 7).getTime(), noon)
    expect(today).toMatch(/05.*07/)
    expect(earlier).not.toBe(today)
    expect(earlier).not.toMatch(/07$/)
  })

  it('shows the year for a date of another year, and only then', () => {
    const thisYear = formatMillis(new Date(2026, 0, 15, 9, 5).getTime(), noon)
    const lastYear = formatMillis(new Date(2025, 0, 15, 9, 5).getTime(), noon)
    expect(thisYear).not.toMatch(/2026/)
    expect(lastYear).toMatch(/2025/)
  })

  it('formats the same instant the same way every time', () => {
    const at = new Date(2026, 11, 2, 9, 5, 7).getTime()
    expect(formatMillis(at, noon)).toBe(formatMillis(at, noon))
  })

  it('does not throw on a time that is not one', () => {
    expect(formatMillis(Number.NaN)).toBe('—')
    expect(formatSeconds(null)).toBe('—')
  })

  it('groups token counts by the locale', () => {
    expect(formatNumber(1234567)).toBe((1234567).toLocaleString())
    expect(describeTokens({ input_tokens: 12000, output_tokens: 5 })).toBe(
      `${(12000).toLocaleString()} input + 5 output tokens`,
    )
  })
})

describe('tokens with the prompt cache', () => {
  const cached = {
    input_tokens: 1_500,
    cache_creation_input_tokens: 600,
    cache_read_input_tokens: 10_000,
    output_tokens: 200,
  }

  it('shows every token, and the share read from the cache', () => {
    expect(formatTokens(cached)).toBe('12k tokens · 81 % cached')
    expect(formatTokens(cached, 'compact')).toBe('12k tokens')
    expect(formatTokens({ input_tokens: 12_000, output_tokens: 300 })).toBe('12k tokens')
    expect(formatTokens({ ...cached, cache_read_input_tokens: 0 })).toBe('2.3k tokens')
  })

  it('never rounds a cached share down to nothing', () => {
    expect(formatPercent(0.001)).toBe('<1 %')
    expect(formatPercent(0)).toBe('0 %')
  })

  it('spells out the split in the tooltip', () => {
    expect(describeTokens(cached)).toBe(
      `${(12_100).toLocaleString()} input + 200 output tokens (of the input, ${(10_000).toLocaleString()} read from the cache and 600 written to it)`,
    )
  })
})
