// Rewrites the roster in a tight loop until killed: statuses flip, members come and go.
// With "in-place", it writes the way the tutorial does (truncate, then write), as a control.
import { writeFileSync } from 'node:fs'
import type { RosterFile } from '../../../src/shared/roster'
import { Roster } from '../../../src/runtime/roster/roster'
import { TeamPaths } from '../../../src/runtime/team/paths'

const [workspace, mode] = process.argv.slice(2) as [string, string | undefined]
const paths = new TeamPaths(workspace)
const roster = Roster.open(paths)
let inPlace: RosterFile = structuredClone(roster.snapshot)
const update = (change: (draft: RosterFile) => void): void => {
  if (mode !== 'in-place') {
    roster.update(change)
    return
  }
  change(inPlace)
  inPlace = structuredClone(inPlace)
  writeFileSync(paths.config, JSON.stringify(inPlace, null, 2))
}
const statuses = ['working', 'idle', 'shutdown'] as const
for (let round = 0; ; round++) {
  update((draft) => {
    const name = `m${round % 40}`
    const member = draft.members.find((candidate) => candidate.name === name)
    if (member) member.status = statuses[round % 3] ?? 'idle'
    else
      draft.members.push({
        name,
        role: `role ${round}`,
        status: 'working',
        note: 'x'.repeat(round % 500),
      })
    if (draft.members.length > 30) draft.members.shift()
    draft.round = round
  })
  // Ready once writing is under way, so that the parent's kill lands among writes.
  if (round === 0) process.stdout.write('ready\n')
}
