import { describe, expect, it } from 'vitest'
import { sequentialIds } from '../../../../src/runtime/system/clock'
import { NeedsYou } from '../../../../src/runtime/needs-you/queue'
import { NeedsYouStore } from '../../../../src/runtime/needs-you/store'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import type { TeamEvent } from '../../../../src/shared/events'
import { tempWorkspace } from '../../../helpers/workspace'

function openQueue(paths: TeamPaths): { queue: NeedsYou; waits: string[]; events: TeamEvent[] } {
  const waits: string[] = []
  const events: TeamEvent[] = []
  const queue = new NeedsYou({
    store: NeedsYouStore.open(paths),
    clock: { now: () => 1_800_000_000_000 },
    ids: sequentialIds(),
    publish: (event) => events.push(event),
    waiting: (agent, waiting) => waits.push(`${agent} ${waiting ? 'waits' : 'goes on'}`),
    actions: { reviewPlan: () => undefined, resume: () => undefined },
  })
  return { queue, waits, events }
}

const request = {
  agent: 'alice',
  kind: 'tool' as const,
  summary: 'bash: npm test',
  detail: 'npm test',
  tool: 'bash',
  toolUseId: 'tu_1',
  pattern: 'npm test',
  ruleTool: 'bash' as const,
}

describe('the queue across runs', () => {
  it('an entry answered while no run waits on it is found by the call when it runs again', async () => {
    const paths = new TeamPaths(tempWorkspace().dir)
    const first = openQueue(paths)
    // The run that asked is gone (killed): its promise is never settled in this test.
    void first.queue.requestApproval(request)
    const [entry] = first.queue.pending()
    expect(first.waits).toEqual(['alice waits'])

    const second = openQueue(paths)
    expect(second.queue.pending().map((one) => one.id)).toEqual([entry?.id])
    second.queue.answer({ id: entry?.id ?? '', decision: 'approve-always' })
    expect(second.queue.rules('alice', 'bash')).toEqual(['npm test'])
    // The call, run again, takes the recorded answer without asking or waiting.
    await expect(second.queue.requestApproval(request)).resolves.toEqual({
      kind: 'approved',
      always: true,
    })
    expect(second.queue.entries()).toHaveLength(1)
    expect(second.waits).toEqual([])

    const third = openQueue(paths)
    void third.queue.requestApproval({ ...request, toolUseId: 'tu_2' })
    const denied = third.queue.pending()[0]
    third.queue.answer({ id: denied?.id ?? '', decision: 'deny', text: 'not now' })
    await expect(third.queue.requestApproval({ ...request, toolUseId: 'tu_2' })).resolves.toEqual({
      kind: 'denied',
      reason: 'not now',
    })
  })

  it('refuses answers that do not fit the entry, saying what does', () => {
    const { queue } = openQueue(new TeamPaths(tempWorkspace().dir))
    void queue.requestApproval({ ...request, kind: 'question', toolUseId: 'tu_q' })
    const id = queue.pending()[0]?.id ?? ''
    expect(() => queue.answer({ id, decision: 'approve-always' })).toThrow(
      /A question entry takes answer, deny, not approve-always/,
    )
    expect(() => queue.answer({ id, decision: 'answer', text: '  ' })).toThrow(/empty/)
    expect(() => queue.answer({ id: 'ny-none', decision: 'deny' })).toThrow(/no entry ny-none/)
  })
})
