// Claims tasks from the board until nothing is left that it could ever claim: each win is
// checked (every blocker done), printed, then completed. Its name carries its pid, so that the
// claimers can tell a task held by a killed claimer (it will never be completed) from one held
// by a live one (it will).
import { isProcessAlive } from '../../../src/runtime/fs/processes'
import { TaskBoard } from '../../../src/runtime/tasks/task-board'
import { openBlockers } from '../../../src/shared/tasks'

const [workspace, label] = process.argv.slice(2) as [string, string]
const name = `${label}-${process.pid}`
const board = new TaskBoard(`${workspace}/.team`)
const sleeper = new Int32Array(new SharedArrayBuffer(4))

const ownerAlive = (owner: string): boolean => {
  const pid = Number(owner.split('-').pop())
  return Number.isInteger(pid) && isProcessAlive(pid)
}

process.stdout.write(`ready\n`)
for (;;) {
  const { tasks, problems } = board.list()
  if (problems.length > 0) process.stdout.write(`problem ${JSON.stringify(problems)}\n`)
  const claimable = tasks.filter(
    (task) =>
      task.status === 'pending' && task.owner === null && openBlockers(task, tasks).length === 0,
  )
  if (claimable.length === 0) {
    const waiting = tasks.some(
      (task) => task.status === 'in_progress' && task.owner !== null && ownerAlive(task.owner),
    )
    if (!waiting) break
    Atomics.wait(sleeper, 0, 0, 3)
    continue
  }
  const pick = claimable[Math.floor(Math.random() * Math.min(claimable.length, 4))]
  if (pick === undefined) continue
  const outcome = board.claim(pick.id, name)
  if (!outcome.ok) {
    if (
      outcome.reason !== 'taken' &&
      outcome.reason !== 'blocked' &&
      outcome.reason !== 'not-pending'
    )
      process.stdout.write(`refused ${pick.id} ${outcome.reason}\n`)
    continue
  }
  // A blocker seen not done after the claim was not done at the claim either (done is final here).
  const after = board.list().tasks
  const early = openBlockers(outcome.task, after)
  process.stdout.write(`won ${pick.id}${early.length > 0 ? ` early ${early.join(',')}` : ''}\n`)
  board.complete(pick.id, name, `done by ${name}`)
  process.stdout.write(`done ${pick.id}\n`)
}
process.stdout.write('finished\n')
