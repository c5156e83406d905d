import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { TeamError } from '../../../../src/shared/errors'
import type { Schedule, ScheduleInput } from '../../../../src/shared/schedules'
import type { TeamTemplate } from '../../../../src/shared/templates'
import { scheduleRunLineSchema, type ScheduleRunLine } from '../../../../src/shared/unattended-log'
import type { Script } from '../../../../src/offline-model/script'
import { addSchedule, scheduleFromInput } from '../../../../src/runtime/schedules/schedule-file'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import { FakeClock } from '../../../helpers/fake-clock'
import { startHost, type HostUnderTest, type TestHostOptions } from '../../../helpers/host'
import { tempWorkspace } from '../../../helpers/workspace'

/** 2026-12-01 10:00 UTC: far from any edge of a day. */
export const START_MS = Date.parse('2026-12-01T10:00:00Z')

/** A template the tests apply: one coder. */
export const CODER_TEMPLATE: TeamTemplate = {
  format: 'agent-teams-template',
  v: 1,
  name: 'one-coder',
  description: '',
  members: [{ name: 'alice', role: 'coder', prompt: 'Write the parser.' }],
}

export function templates(name: string): TeamTemplate {
  if (name === CODER_TEMPLATE.name) return CODER_TEMPLATE
  throw new TeamError('not-found', `There is no template "${name}".`)
}

/** A workspace with these schedules already in `.team/schedules.json` (as a clone ships it). */
export function workspaceWith(
  clock: FakeClock,
  inputs: readonly (ScheduleInput & { createdAt?: number })[],
): string {
  const { dir } = tempWorkspace()
  const paths = new TeamPaths(dir)
  mkdirSync(paths.root, { recursive: true })
  for (const { createdAt, ...input } of inputs) {
    const made = scheduleFromInput(input, (createdAt ?? clock.now()) / 1000)
    addSchedule(paths, made)
  }
  return dir
}

/** A schedule as a file holds it, for hand-made files. */
export function scheduleOf(overrides: Partial<Schedule> = {}): Schedule {
  return {
    name: 'nightly',
    when: { type: 'every', seconds: 3600 },
    prompt: 'Check the build.',
    template: null,
    caps: { usd: null, tokens: 100_000 },
    missed: 'run-once',
    overlap: 'wait',
    enabled: true,
    created_at: START_MS / 1000,
    updated_at: START_MS / 1000,
    ...overrides,
  }
}

export function writeSchedulesFile(workspace: string, value: unknown): void {
  const paths = new TeamPaths(workspace)
  mkdirSync(paths.root, { recursive: true })
  writeFileSync(paths.schedules, typeof value === 'string' ? value : JSON.stringify(value))
}

/** A host that runs schedules on the fake clock (its timers too). */
export function scheduledHost(
  script: Script,
  clock: FakeClock,
  workspace: string,
  options: TestHostOptions = {},
): Promise<HostUnderTest> {
  return startHost(script, {
    workspace,
    clock,
    schedules: { template: templates, timers: clock },
    ...options,
  })
}

/** Every line of the run log, each checked against the shared schema. */
export function runLines(workspace: string): ScheduleRunLine[] {
  let text: string
  try {
    text = readFileSync(join(workspace, '.team', 'schedule-runs.jsonl'), 'utf8')
  } catch {
    return []
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => scheduleRunLineSchema.parse(JSON.parse(line)))
}

export function events(workspace: string): string[] {
  return runLines(workspace).map((line) => `${line.schedule}:${line.event}`)
}

/** A clock at the tests' start. */
export function startClock(): FakeClock {
  return new FakeClock(START_MS)
}
