import { setTimeout as sleep } from 'node:timers/promises'

/**
 * Waits until `condition` holds, checking every `interval` ms; fails after `timeout` ms with
 * `describe()` in the message. Only a bound on waiting, never an assertion about time.
 */
export async function waitFor(
  condition: () => boolean,
  describe: () => string = () => 'the condition',
  { timeout = 3000, interval = 10 }: { timeout?: number; interval?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeout
  for (;;) {
    if (condition()) return
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeout} ms waiting for ${describe()}`)
    await sleep(interval)
  }
}
