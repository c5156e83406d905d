import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { onTestFinished } from 'vitest'
import type { TeamPaths } from '../../src/runtime/team/paths'
import { TeamWatcher, type TeamChange } from '../../src/runtime/team/watcher'
import { s09Line, tempWorkspace } from './workspace'

export interface Watched {
  readonly watcher: TeamWatcher
  readonly events: TeamChange[]
  /** The size of alice's inbox at each of its events, read when the event arrived. */
  readonly aliceSizes: number[]
}

/** `onChange` reads what a test needs at the moment of each change (a file's content). */
export async function watch(
  paths: TeamPaths,
  onChange: (change: TeamChange) => void = () => undefined,
): Promise<Watched> {
  const events: TeamChange[] = []
  const aliceSizes: number[] = []
  const watcher = new TeamWatcher(paths, (change) => {
    events.push(change)
    onChange(change)
    if (change.kind === 'inbox' && change.name === 'alice' && change.change !== 'removed')
      aliceSizes.push(statSync(paths.inbox('alice')).size)
  })
  onTestFinished(() => watcher.close())
  await watcher.ready()
  return { watcher, events, aliceSizes }
}

export function workspaceWithInboxes(...names: string[]): TeamPaths {
  const { paths } = tempWorkspace()
  mkdirSync(paths.inboxDirectory, { recursive: true })
  writeFileSync(paths.config, '{"team_name": "t", "members": []}\n')
  for (const name of names) writeFileSync(paths.inbox(name), s09Line(`hello ${name}`))
  return paths
}

export const has = (events: readonly TeamChange[], wanted: TeamChange) => () =>
  events.some((event) => JSON.stringify(event) === JSON.stringify(wanted))
export const shown = (events: readonly TeamChange[]) => () =>
  `an event; got ${JSON.stringify(events)}`
