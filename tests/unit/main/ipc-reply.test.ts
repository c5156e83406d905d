import { describe, expect, it } from 'vitest'
import { TeamError } from '../../../src/shared/errors'
import type { SerializedError } from '../../../src/shared/errors'
import {
  toCommandRejection,
  toIpcReply,
  unwrapIpcReply,
  type IpcReply,
} from '../../../src/shared/ipc-reply'

function rejectionOf(reply: IpcReply): unknown {
  try {
    unwrapIpcReply(reply)
  } catch (error) {
    return error
  }
  throw new Error('expected unwrapIpcReply to throw')
}

describe('command replies over IPC', () => {
  it('carries a result as it is', async () => {
    const reply = await toIpcReply(async () => ({ count: 2 }))
    expect(reply).toEqual({ ok: true, result: { count: 2 } })
    expect(unwrapIpcReply(reply)).toEqual({ count: 2 })
  })

  it('carries a team error as { name, code, message } data, never as a rejection', async () => {
    const reply = await toIpcReply(async () => {
      throw new TeamError('unknown-recipient', 'There is no agent "zed".')
    })
    expect(reply).toEqual({
      ok: false,
      error: { name: 'TeamError', code: 'unknown-recipient', message: 'There is no agent "zed".' },
    })
  })

  it('carries any other failure as an internal error', async () => {
    expect(await toIpcReply(() => Promise.reject(new TypeError('boom')))).toEqual({
      ok: false,
      error: { name: 'TypeError', code: 'internal', message: 'boom' },
    })
  })

  it('unwraps a failure into a plain object that survives contextBridge and structured clone', () => {
    const error: SerializedError = {
      name: 'TeamError',
      code: 'member-working',
      message: 'alice is working.',
    }
    const rejection = rejectionOf({ ok: false, error })
    expect(rejection).toEqual(error)
    expect(Object.getPrototypeOf(rejection)).toBe(Object.prototype)
    expect(structuredClone(rejection)).toEqual(error)
  })

  it('reads name, code and message off whatever a command rejected with', () => {
    const error: SerializedError = { name: 'TeamError', code: 'invalid-name', message: 'Bad name.' }
    expect(toCommandRejection(rejectionOf({ ok: false, error }))).toEqual(error)
    expect(toCommandRejection(new TeamError('invalid-name', 'Bad name.'))).toEqual(error)
    expect(toCommandRejection(new Error('plain'))).toEqual({
      name: 'Error',
      code: 'internal',
      message: 'plain',
    })
    expect(toCommandRejection('text')).toEqual({ name: 'Error', code: 'internal', message: 'text' })
    expect(toCommandRejection(null)).toEqual({ name: 'Error', code: 'internal', message: 'null' })
  })
})
