import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Waits until `condition` holds, checking every `interval` ms; fails after `timeout` ms with
 * `describe()` in the message. Only a bound on waiting, never an assertion about time.
 *
 * Wait for the state a test needs (a file's content, a status, a view), not for a count or an
 * order of events: on a busy machine an earlier action's event can arrive late and be counted
 * for the next one, and an event can arrive before the state it announces is readable.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  describe: () => string = () => 'the condition',
  { timeout = 3000, interval = 10 }: { timeout?: number; interval?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeout
  for (;;) {
    if (await condition()) return
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeout} ms waiting for ${describe()}`)
    await sleep(interval)
  }
}
