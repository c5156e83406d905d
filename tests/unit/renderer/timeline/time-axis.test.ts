import { describe, expect, it } from 'vitest'
import {
  describeSpan,
  fitSpan,
  keepInView,
  MAX_SECONDS_PER_PIXEL,
  MIN_SECONDS_PER_PIXEL,
  panBy,
  tickStep,
  ticks,
  timeAt,
  viewEnd,
  zoomAt,
  type Viewport,
} from '../../../../src/renderer/timeline/time-axis'

const utc = () => 0
/** 2026-03-03T10:00:00Z. */
const T = Date.UTC(2026, 2, 3, 10, 0, 0) / 1000

describe('the time axis', () => {
  it('picks a step a person counts in, wide enough apart, at every zoom level', () => {
    expect(tickStep(0.005)).toBe(0.5)
    expect(tickStep(0.01)).toBe(1)
    expect(tickStep(0.1)).toBe(10)
    expect(tickStep(1)).toBe(120)
    expect(tickStep(60)).toBe(7200)
    expect(tickStep(600)).toBe(86_400)
    expect(tickStep(MAX_SECONDS_PER_PIXEL)).toBe(172_800)
  })

  it('labels seconds, minutes, hours and days at their precision', () => {
    const seconds: Viewport = { start: T, secondsPerPixel: 0.1, width: 400 }
    expect(ticks(seconds, 90, utc).map((tick) => tick.label)).toEqual([
      '10:00:00',
      '10:00:10',
      '10:00:20',
      '10:00:30',
      '10:00:40',
    ])
    const tenths: Viewport = { start: T, secondsPerPixel: 0.005, width: 300 }
    expect(ticks(tenths, 90, utc).map((tick) => tick.label)).toEqual([
      '10:00:00.0',
      '10:00:00.5',
      '10:00:01.0',
      '10:00:01.5',
    ])
    const hours: Viewport = { start: T - 3 * 3600, secondsPerPixel: 60, width: 1000 }
    const hourTicks = ticks(hours, 90, utc)
    expect(hourTicks.map((tick) => tick.label)).toEqual([
      '08:00',
      '10:00',
      '12:00',
      '14:00',
      '16:00',
      '18:00',
      '20:00',
      '22:00',
    ])
    // Whole steps of the clock, placed where their time is.
    expect(hourTicks[0]?.x).toBeCloseTo(60)
    const days: Viewport = { start: T, secondsPerPixel: 1000, width: 1000 }
    const dayTicks = ticks(days, 90, utc)
    expect(dayTicks.map((tick) => tick.label).slice(0, 3)).toEqual(['Mar 4', 'Mar 6', 'Mar 8'])
    expect(dayTicks.every((tick) => tick.major)).toBe(true)
  })

  it('names the day at midnight when the step is in hours', () => {
    const view: Viewport = { start: T + 12 * 3600, secondsPerPixel: 60, width: 1000 }
    const labels = ticks(view, 90, utc).map((tick) => `${tick.label}${tick.major ? '!' : ''}`)
    expect(labels).toContain('Mar 4!')
    expect(labels).toContain('02:00')
  })

  it('aligns the ticks to the local clock', () => {
    const plusTwo = () => 7200
    const view: Viewport = { start: T, secondsPerPixel: 60, width: 500 }
    const first = ticks(view, 90, plusTwo)[0]
    // 10:00 UTC is 12:00 in UTC+2: the ticks fall on even local hours and say so.
    expect(first?.label).toBe('12:00')
    expect(first?.at).toBe(T)
  })

  it('zooms about the pointer, within the closest and widest levels', () => {
    const view: Viewport = { start: T, secondsPerPixel: 1, width: 1000 }
    const closer = zoomAt(view, 0.5, 200)
    expect(timeAt(closer, 200)).toBeCloseTo(timeAt(view, 200))
    expect(closer.secondsPerPixel).toBe(0.5)
    expect(zoomAt(view, 1e-9, 0).secondsPerPixel).toBe(MIN_SECONDS_PER_PIXEL)
    expect(zoomAt(view, 1e9, 0).secondsPerPixel).toBe(MAX_SECONDS_PER_PIXEL)
    expect(panBy(view, 100).start).toBe(T + 100)
  })

  it('fits a run in view, and keeps a moving cursor in view', () => {
    const fitted = fitSpan({ start: T, end: T + 1000 }, 1000)
    expect(fitted.start).toBeLessThan(T)
    expect(viewEnd(fitted)).toBeGreaterThan(T + 1000)
    const moved = keepInView(fitted, T + 5000)
    expect(moved.secondsPerPixel).toBe(fitted.secondsPerPixel)
    expect(viewEnd(moved)).toBeGreaterThan(T + 5000)
    expect(keepInView(fitted, T + 500)).toBe(fitted)
    expect(describeSpan(30)).toBe('30 s')
    expect(describeSpan(3600)).toBe('60 min')
    expect(describeSpan(7 * 86_400)).toBe('7 d')
  })
})
