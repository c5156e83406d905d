import { readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { text } from '../../../../src/offline-model/script'
import { describeWhen, parseTime, SCHEDULES_VERSION } from '../../../../src/shared/schedules'
import { parseDuration } from '../../../../src/shared/duration'
import { cronProblem, dueBetween } from '../../../../src/runtime/schedules/occurrences'
import {
  addSchedule,
  readSchedules,
  removeSchedule,
  scheduleFromInput,
} from '../../../../src/runtime/schedules/schedule-file'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import { tempWorkspace } from '../../../helpers/workspace'
import {
  events,
  scheduledHost,
  scheduleOf,
  START_MS,
  startClock,
  writeSchedulesFile,
} from './schedule-helpers'

const NOW = START_MS / 1000

describe('.team/schedules.json is hostile input', () => {
  const cases: [string, (workspace: string) => void, RegExp][] = [
    ['garbage', (w) => writeSchedulesFile(w, '{"v":1,"schedules":[oops'), /is not valid JSON/],
    [
      'an unknown version',
      (w) => writeSchedulesFile(w, { v: 2, schedules: [] }),
      /format version 2; this app reads version 1/,
    ],
    [
      'a time no date can hold',
      (w) =>
        writeSchedulesFile(w, {
          v: 1,
          schedules: [scheduleOf({ when: { type: 'at', at: 1e300 } })],
        }),
      /schedules\.0\.when\.at/,
    ],
    [
      'a made-at time of 1e300',
      (w) => writeSchedulesFile(w, { v: 1, schedules: [scheduleOf({ created_at: 1e300 })] }),
      /schedules\.0\.created_at/,
    ],
    [
      'a run with no cap',
      (w) =>
        writeSchedulesFile(w, {
          v: 1,
          schedules: [scheduleOf({ caps: { usd: null, tokens: null } })],
        }),
      /a run needs a cap/,
    ],
    [
      'a name twice',
      (w) => writeSchedulesFile(w, { v: 1, schedules: [scheduleOf(), scheduleOf()] }),
      /"nightly" is given twice/,
    ],
    [
      'a cron that is not one',
      (w) =>
        writeSchedulesFile(w, {
          v: 1,
          schedules: [scheduleOf({ when: { type: 'cron', cron: '61 * * * *' } })],
        }),
      /schedule nightly: .*minute/,
    ],
    [
      'nesting 10,000 deep',
      (w) => writeSchedulesFile(w, `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
      /nested more than 32 levels deep/,
    ],
    [
      'a symlink',
      (w) => {
        writeFileSync(join(w, 'elsewhere.json'), JSON.stringify({ v: 1, schedules: [] }))
        writeSchedulesFile(w, '')
        const paths = new TeamPaths(w)
        // The file is a link to one outside `.team/`.
        unlinkSync(paths.schedules)
        symlinkSync(join(w, 'elsewhere.json'), paths.schedules)
      },
      /symbolic link/,
    ],
    ['null', (w) => writeSchedulesFile(w, 'null'), /is not valid/],
  ]

  for (const [what, write, problem] of cases)
    it(`${what}: refused whole with the reason, never overwritten, nothing runs`, async () => {
      const { dir } = tempWorkspace()
      write(dir)
      const paths = new TeamPaths(dir)
      const reading = readSchedules(paths)
      expect(reading.schedules).toEqual([])
      expect(reading.problem).toMatch(problem)

      const before = readFileSync(paths.schedules)
      expect(() => addSchedule(paths, scheduleFromInput(input(), NOW))).toThrow(
        expect.objectContaining({ code: 'file-invalid' }),
      )
      expect(readFileSync(paths.schedules)).toEqual(before)

      // A team opens on it and runs: the problem is shown, not thrown.
      const clock = startClock()
      const { host } = await scheduledHost(() => text('ok'), clock, dir)
      expect(host.schedules?.listing().problem).toMatch(problem)
      clock.advance(3_600_000)
      expect(events(dir)).toEqual([])
    })
})

function input() {
  return {
    name: 'nightly',
    when: { type: 'every' as const, seconds: 3600 },
    prompt: 'Check.',
  }
}

describe('a schedule as the person gives it', () => {
  it('takes $5 as the cap by default, and only the caps given otherwise', () => {
    expect(scheduleFromInput(input(), NOW).caps).toEqual({ usd: 5, tokens: null })
    expect(scheduleFromInput({ ...input(), tokens: 5000 }, NOW).caps).toEqual({
      usd: null,
      tokens: 5000,
    })
    expect(() => scheduleFromInput({ ...input(), usd: null }, NOW)).toThrow(/needs a cap/)
  })

  it('stores `in` as the time it ends, and refuses a time past, an empty prompt, a bad cron', () => {
    expect(scheduleFromInput({ ...input(), when: { type: 'in', seconds: 90 } }, NOW).when).toEqual({
      type: 'at',
      at: NOW + 90,
    })
    expect(() => scheduleFromInput({ ...input(), when: { type: 'at', at: NOW - 1 } }, NOW)).toThrow(
      /has passed/,
    )
    expect(() => scheduleFromInput({ ...input(), prompt: '  ' }, NOW)).toThrow(/prompt is empty/)
    expect(() =>
      scheduleFromInput({ ...input(), when: { type: 'cron', cron: '0 0 31 2 *' } }, NOW),
    ).toThrow(/never occurs/)
    expect(() => scheduleFromInput({ ...input(), name: '../x' }, NOW)).toThrow(/name/)
    expect(() =>
      scheduleFromInput({ ...input(), when: { type: 'every', seconds: 30 } }, NOW),
    ).toThrow(/when\.seconds/)
  })

  it('is added once by name, and removed by name', () => {
    const { paths } = tempWorkspace()
    addSchedule(paths, scheduleFromInput(input(), NOW))
    expect(() => addSchedule(paths, scheduleFromInput(input(), NOW))).toThrow(/already a schedule/)
    const file = JSON.parse(readFileSync(paths.schedules, 'utf8')) as { v: number }
    expect(file.v).toBe(SCHEDULES_VERSION)
    removeSchedule(paths, 'nightly')
    expect(readSchedules(paths).schedules).toEqual([])
    expect(() => removeSchedule(paths, 'nightly')).toThrow(/no schedule "nightly"/)
  })
})

describe('times, durations and cron', () => {
  it('reads durations, and refuses what is not one', () => {
    expect(parseDuration('30s')).toBe(30)
    expect(parseDuration('10m')).toBe(600)
    expect(parseDuration('1h30m')).toBe(5400)
    expect(parseDuration('1d')).toBe(86_400)
    for (const bad of ['', '0s', '10', 'm', '1x', '-1h', '1.5h', '1m1h'])
      expect(parseDuration(bad)).toBeNull()
  })

  it('reads HH:MM as its next occurrence and ISO 8601 with a time', () => {
    const noon = new Date(2026, 11, 1, 12, 0).getTime()
    expect(parseTime('13:30', noon)).toEqual({ at: new Date(2026, 11, 1, 13, 30).getTime() / 1000 })
    expect(parseTime('09:00', noon)).toEqual({ at: new Date(2026, 11, 2, 9, 0).getTime() / 1000 })
    expect(parseTime('2026-12-24T09:00Z', noon)).toEqual({
      at: Date.parse('2026-12-24T09:00Z') / 1000,
    })
    for (const bad of ['25:00', '9am', '2026-12-24', 'tomorrow', '+275760-09-13T00:00Z'])
      expect(parseTime(bad, noon)).toHaveProperty('problem')
  })

  it('says why a cron expression is not one', () => {
    expect(cronProblem('0 9 * * 1-5')).toBeNull()
    expect(cronProblem('* * * *')).toMatch(/has 4 fields; a cron expression has five/)
    expect(cronProblem('61 * * * *')).toMatch(/minute/)
    expect(cronProblem('0 0 30 2 *')).toMatch(/never occurs/)
    expect(describeWhen({ type: 'every', seconds: 5400 })).toBe('every 1h30m')
  })

  it('counts the due times in a span, however many, with the latest', () => {
    const hourly = scheduleOf({ created_at: NOW, updated_at: NOW })
    expect(dueBetween(hourly, NOW, NOW + 3599)).toBeNull()
    expect(dueBetween(hourly, NOW, NOW + 10.5 * 3600)).toEqual({ count: 10, latest: NOW + 36_000 })
    const everyMinute = scheduleOf({ when: { type: 'cron', cron: '* * * * *' } })
    const many = dueBetween(everyMinute, NOW, NOW + 30 * 86_400)
    expect(many?.count).toBe(1000)
    expect(many?.latest).toBe(NOW + 30 * 86_400)
  })
})
