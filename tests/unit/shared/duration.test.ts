import { describe, expect, it } from 'vitest'
import { formatDuration, parseDuration } from '../../../src/shared/duration'

describe('durations', () => {
  it('reads every unit, largest first, and combinations', () => {
    expect(parseDuration('90s')).toBe(90)
    expect(parseDuration('10m')).toBe(600)
    expect(parseDuration('1h30m')).toBe(5400)
    expect(parseDuration(' 2d ')).toBe(172_800)
    expect(parseDuration('1w1d')).toBe(8 * 86_400)
  })

  it('refuses what is not one: no unit, zero, order, fractions, signs, overflow', () => {
    for (const bad of [
      '',
      '10',
      '0s',
      '0h0m',
      '1m1h',
      '1.5h',
      '-1h',
      'h',
      '1x',
      '1 h',
      '9999999999w',
    ])
      expect(parseDuration(bad), bad).toBeNull()
  })

  it('writes what it reads back', () => {
    for (const seconds of [1, 59, 60, 90, 3600, 5400, 86_400, 90_061, 8 * 86_400])
      expect(parseDuration(formatDuration(seconds))).toBe(seconds)
    expect(formatDuration(0)).toBe('0s')
  })
})
