import { describe, expect, it } from 'vitest'
import { text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { agentScript } from '../../../helpers/agents'
import { startHost } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

describe('the Needs-you queue mirrors plans, pauses and errors', () => {
  it('a plan to review is an entry; approving it there approves the plan', async () => {
    const turns: Reply[] = [
      toolCall('submit_plan', { plan: 'Write a.txt.' }),
      text('Waiting.'),
      text('Approved; going ahead.'),
    ]
    const team = await startHost(
      agentScript((agent, call) => (agent === 'alice' ? turns[call - 1] : undefined)),
      { leadWakesOnMessages: false },
    )
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Plan.', approval: 'plan-first' })
    await team.host.whenIdle()
    const [entry] = team.host.needsYou.pending()
    expect(entry).toMatchObject({ agent: 'alice', kind: 'plan', detail: 'Write a.txt.' })
    team.host.answerNeedsYou({ id: entry?.id ?? '', decision: 'approve' })
    expect(team.host.protocolRequests()[0]?.status).toBe('approved')
    expect(team.host.needsYou.pending()).toEqual([])
    await team.host.whenIdle()
  })

  it('a budget pause is an entry until the agent goes on; a restart keeps a pause that holds, and answering it resumes', async () => {
    const turns: Reply[] = [text('One.'), text('Two.')]
    const team = await startHost(
      agentScript((agent, call) => (agent === 'bob' ? turns[call - 1] : undefined)),
      { leadWakesOnMessages: false },
    )
    await team.host.spawn({ name: 'bob', role: 'x', prompt: 'Go.' })
    await team.host.whenIdle()
    team.host.setBudget('bob', { tokens: null, rounds: 1, usd: null })
    team.host.send({ to: 'bob', content: 'more' })
    await waitFor(
      () => team.host.needsYou.pending().length === 1,
      () => 'a pause entry',
    )
    await team.host.whenIdle()
    expect(team.host.needsYou.pending()[0]).toMatchObject({ agent: 'bob', kind: 'pause' })
    expect(team.host.needsYou.pending()[0]?.detail).toMatch(/round budget is used up/)

    const again = await team.restart()
    const [kept] = again.host.needsYou.pending()
    expect(kept?.kind).toBe('pause')
    // Answering the entry resumes the agent (once its budget lets it go on).
    again.host.setBudget('bob', { tokens: null, rounds: null, usd: null })
    again.host.answerNeedsYou({ id: kept?.id ?? '', decision: 'approve' })
    await again.host.whenIdle()
    expect(again.host.needsYou.pending()).toEqual([])
    expect(again.records('bob', 'assistant').at(-1)?.content).toEqual([
      { type: 'text', text: 'Two.' },
    ])
  })
})
