import { EventEmitter } from 'node:events'
import { describe, expect, it } from 'vitest'
import { onStopSignals, type StopSignal } from '../../../src/runtime/system/stop-signals'

/** A process stand-in: signals are events, exit is recorded. */
function fakeProcess() {
  const emitter = new EventEmitter()
  const exits: number[] = []
  const target = {
    on: (event: string, listener: () => void) => emitter.on(event, listener),
    off: (event: string, listener: () => void) => emitter.off(event, listener),
    exit: (code?: number) => void exits.push(code ?? 0),
  } as unknown as Pick<NodeJS.Process, 'on' | 'off' | 'exit'>
  return { emitter, exits, target }
}

describe('onStopSignals', () => {
  it('stops on the first signal and exits with its status on a second one', () => {
    for (const [first, second, code] of [
      ['SIGTERM', 'SIGTERM', 143],
      ['SIGINT', 'SIGTERM', 143],
      ['SIGTERM', 'SIGINT', 130],
    ] as const) {
      const { emitter, exits, target } = fakeProcess()
      const stops: StopSignal[] = []
      onStopSignals((signal) => stops.push(signal), target)
      emitter.emit(first)
      expect(stops).toEqual([first])
      expect(exits).toEqual([])
      emitter.emit(second)
      expect(stops).toEqual([first])
      expect(exits).toEqual([code])
    }
  })

  it('listens no more once disposed', () => {
    const { emitter, target } = fakeProcess()
    const signals = onStopSignals(() => undefined, target)
    expect(emitter.listenerCount('SIGTERM')).toBe(1)
    expect(emitter.listenerCount('SIGINT')).toBe(1)
    signals.dispose()
    expect(emitter.listenerCount('SIGTERM')).toBe(0)
    expect(emitter.listenerCount('SIGINT')).toBe(0)
  })
})
