import { appendFileSync, statSync } from 'node:fs'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { TRAILING_CHECK_MS, TeamWatcher, type TeamChange } from '../../../src/runtime/team/watcher'
import { shown, watch, workspaceWithInboxes } from '../../helpers/watch'
import { waitFor } from '../../helpers/wait'
import { s09Line } from '../../helpers/workspace'

// In a file of its own, so that no other test's file watches are open in this process.
describe('TeamWatcher.close', () => {
  it('close() clears its re-check timers, stops its file watches, and reports nothing more', async () => {
    const realSetTimeout = globalThis.setTimeout
    const realClearTimeout = globalThis.clearTimeout
    const trailing = new Map<unknown, 'pending' | 'fired' | 'cleared'>()
    const setSpy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      callback: (...args: unknown[]) => void,
      ms?: number,
      ...args: unknown[]
    ) => {
      if (ms !== TRAILING_CHECK_MS) return realSetTimeout(callback, ms, ...args)
      const timer = realSetTimeout(() => {
        trailing.set(timer, 'fired')
        callback(...args)
      }, ms)
      trailing.set(timer, 'pending')
      return timer
    }) as typeof setTimeout)
    const clearSpy = vi.spyOn(globalThis, 'clearTimeout').mockImplementation(((
      timer?: Parameters<typeof clearTimeout>[0],
    ) => {
      if (trailing.get(timer) === 'pending') trailing.set(timer, 'cleared')
      realClearTimeout(timer)
    }) as typeof clearTimeout)
    onTestFinished(() => {
      setSpy.mockRestore()
      clearSpy.mockRestore()
    })
    const watches = () =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'FSEventWrap').length
    const baseline = watches()
    const paths = workspaceWithInboxes('alice')
    const events: TeamChange[] = []
    let pendingAtClose: string[] | undefined
    let closed: Promise<void> | undefined
    const watcher: TeamWatcher = new TeamWatcher(paths, (change) => {
      events.push(change)
      // Close right after the first event, once its re-check timer is set (a microtask later).
      if (pendingAtClose !== undefined) return
      pendingAtClose = []
      queueMicrotask(() => {
        pendingAtClose = [...trailing.values()]
        closed = watcher.close()
      })
    })
    onTestFinished(() => watcher.close())
    await watcher.ready()
    expect(watches()).toBeGreaterThan(baseline)
    appendFileSync(paths.inbox('alice'), s09Line('one'))
    await waitFor(() => closed !== undefined, shown(events))
    await closed
    expect(pendingAtClose).toContain('pending')
    expect([...trailing.values()].filter((state) => state === 'pending')).toHaveLength(0)
    const seenBefore = events.length
    // Another watcher is the sentinel: once it reports the next write, the closed one would have.
    const other = await watch(paths)
    appendFileSync(paths.inbox('alice'), s09Line('two'))
    const otherBefore = other.events.length
    await waitFor(
      () =>
        other.aliceSizes.at(-1) === statSync(paths.inbox('alice')).size &&
        other.events.length > otherBefore,
      shown(other.events),
    )
    expect(events).toHaveLength(seenBefore)
    await other.watcher.close()
    await waitFor(
      () => watches() <= baseline,
      () => `the file watches to stop (${watches()} open, ${baseline} before)`,
    )
  })
})
