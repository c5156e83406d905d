import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall, type Reply } from '../../../../src/offline-model/script'
import { USER } from '../../../../src/shared/names'
import { gitIn, gitWorkspace } from '../../../helpers/git'
import { startHost } from '../../../helpers/host'
import { fromReactions, movableClock, reactionLines } from '../../../helpers/reactions'
import { waitFor } from '../../../helpers/wait'
import { tempWorkspace } from '../../../helpers/workspace'

const MINUTE = 60_000

/** A reply held back until `release()`: the agent stays `working`, silent, meanwhile. */
function heldReply(reply: Reply): { reply: Promise<Reply>; release: () => void } {
  let release = (): void => undefined
  const held = new Promise<Reply>((resolve) => {
    release = () => resolve(reply)
  })
  return { reply: held, release }
}

describe('stalls: a nudge, then Needs-you', () => {
  it('a silent working agent is nudged, then escalated; moving again settles it', async () => {
    const clock = movableClock()
    const held = heldReply(text('Sorry, I was thinking.'))
    const replies: Record<string, (Reply | Promise<Reply>)[]> = {
      alice: [held.reply, text('Back to work.')],
    }
    const script = queueScript(replies as Record<string, Reply[]>)
    const team = await startHost(script, { clock, reactionTickMs: null })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await waitFor(
      () => team.host.roster().members[0]?.status === 'working',
      () => 'alice at work on her held model call',
    )

    team.host.reactions.tick()
    expect(reactionLines(team.workspace)).toEqual([])
    clock.advance(11 * MINUTE)
    team.host.reactions.tick()
    expect(reactionLines(team.workspace).map((line) => [line.kind, line.reason])).toEqual([
      ['nudge', 'silent'],
    ])
    const pending = await team.host.inbox('alice', { pendingOnly: true })
    expect(pending.entries.map((entry) => entry.message?.from)).toEqual(['reactions'])
    team.host.reactions.tick()
    expect(team.host.needsYou.pending()).toEqual([])

    clock.advance(11 * MINUTE)
    team.host.reactions.tick()
    team.host.reactions.tick()
    expect(reactionLines(team.workspace).map((line) => line.kind)).toEqual(['nudge', 'escalate'])
    const [entry] = team.host.needsYou.pending()
    expect(entry).toMatchObject({ agent: 'alice', kind: 'stall' })
    expect(entry?.detail).toContain('has not moved')

    held.release()
    await team.host.whenIdle()
    script.assertConsumed()
    expect(fromReactions(team, 'alice')[0]).toContain('without a word')
    expect(team.host.needsYou.pending()).toEqual([])
    expect(team.host.reactions.view().counts).toMatchObject({ nudge: 1, escalate: 1 })
  })

  it('an agent idle with a task in progress is nudged (which wakes it), then escalated', async () => {
    const clock = movableClock()
    const script = queueScript({
      alice: [text('Waiting.'), text('I am on it, really.')],
    })
    const team = await startHost(script, { clock, reactionTickMs: null })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    const task = team.host.tasks.create({ subject: 'Write the parser', by: USER })
    expect(team.host.tasks.claim(task.id, 'alice').ok).toBe(true)

    clock.advance(11 * MINUTE)
    team.host.reactions.tick()
    await waitFor(
      () => fromReactions(team, 'alice').length === 1,
      () => 'the nudge in alice transcript (it woke her)',
    )
    await team.host.whenIdle()
    expect(fromReactions(team, 'alice')[0]).toContain(`task #${task.id} (Write the parser)`)
    team.host.reactions.tick()
    expect(team.host.needsYou.pending()).toEqual([])

    clock.advance(11 * MINUTE)
    team.host.reactions.tick()
    expect(
      reactionLines(team.workspace).map((line) => [line.kind, line.reason, line.task]),
    ).toEqual([
      ['nudge', 'idle-task', task.id],
      ['escalate', 'idle-task', task.id],
    ])
    expect(team.host.needsYou.pending()).toMatchObject([{ agent: 'alice', kind: 'stall' }])
    script.assertConsumed()

    // The task moves (given back to the board): what was raised for it is settled.
    team.host.tasks.update(task.id, { status: 'pending', owner: null }, USER)
    team.host.reactions.tick()
    expect(team.host.needsYou.pending()).toEqual([])
  })

  it('nothing is nudged with the reaction off', async () => {
    const clock = movableClock()
    const script = queueScript({ alice: [text('Waiting.')] })
    const team = await startHost(script, { clock, reactionTickMs: null })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    const task = team.host.tasks.create({ subject: 'Idle work', by: USER })
    team.host.tasks.claim(task.id, 'alice')
    team.host.reactions.set({ idle_task: { on: false } })
    clock.advance(60 * MINUTE)
    team.host.reactions.tick()
    expect(reactionLines(team.workspace)).toEqual([])
  })

  it('nothing is nudged in a workspace the person does not trust', async () => {
    const clock = movableClock()
    const workspace = tempWorkspace().dir
    mkdirSync(join(workspace, '.team'), { recursive: true })
    const script = queueScript({ alice: [text('Waiting.')] })
    const team = await startHost(script, {
      clock,
      workspace,
      reactionTickMs: null,
      trust: { store: null, forRun: false },
    })
    expect(team.host.trust.isTrusted()).toBe(false)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    const task = team.host.tasks.create({ subject: 'Idle work', by: USER })
    team.host.tasks.claim(task.id, 'alice')
    clock.advance(60 * MINUTE)
    team.host.reactions.tick()
    clock.advance(60 * MINUTE)
    team.host.reactions.tick()
    expect(reactionLines(team.workspace)).toEqual([])
    expect(team.host.needsYou.pending()).toEqual([])
  })
})

describe('merge conflicts go to the branch owner', () => {
  async function conflicted(conflicts: boolean) {
    const workspace = gitWorkspace()
    const script = queueScript({
      alice: [
        toolCall('write_file', { path: 'src/app.ts', content: 'export const a = 2\n' }),
        text('Done.'),
        text('I will merge main and resolve it.'),
      ],
    })
    const team = await startHost(script, { workspace })
    if (!conflicts) team.host.reactions.set({ conflicts: false })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Work.' })
    await team.host.whenIdle()
    writeFileSync(join(workspace, 'src/app.ts'), 'export const a = 99\n')
    gitIn(workspace, 'commit', '-qam', 'Person changes a')
    return { team, result: await team.host.worktrees.merge('alice', {}) }
  }

  it('with the reaction on, the owner gets the files and what to do', async () => {
    const { team, result } = await conflicted(true)
    expect(result).toEqual({
      outcome: 'conflict',
      into: 'main',
      files: ['src/app.ts'],
      handed_back: true,
    })
    await waitFor(
      () => fromReactions(team, 'alice').length === 1,
      () => 'the hand-back',
    )
    await team.host.whenIdle()
    const [message] = fromReactions(team, 'alice')
    expect(message).toContain('conflicts in: src/app.ts')
    expect(message).toContain('git merge main')
    const inbox = team.records('alice', 'inbox').flatMap((record) => record.messages)
    expect(inbox.at(-1)?.extra).toMatchObject({
      review: { kind: 'conflict', into: 'main', files: ['src/app.ts'] },
    })
    expect(reactionLines(team.workspace)).toMatchObject([{ kind: 'conflict', agent: 'alice' }])
  })

  it('with the reaction off, nothing is sent', async () => {
    const { team, result } = await conflicted(false)
    expect(result).toEqual({ outcome: 'conflict', into: 'main', files: ['src/app.ts'] })
    await team.host.whenIdle()
    expect(fromReactions(team, 'alice')).toEqual([])
    expect(reactionLines(team.workspace)).toEqual([])
  })
})
