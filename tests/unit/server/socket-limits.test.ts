import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_JSON_DEPTH } from '../../../src/shared/json-limits'
import { MAX_REQUEST_FRAME_BYTES } from '../../../src/shared/wire'
import { startFixture, type Fixture } from './fixture'

/** A request frame as our client writes it, with `params` nested `depth` arrays deep. */
function deepRequest(id: number, depth: number): string {
  return `{"kind":"request","id":${id},"command":"getInfo","params":${'['.repeat(depth)}${']'.repeat(depth)}}`
}

describe('browser server: what a request frame may contain', () => {
  let fixture: Fixture
  beforeEach(async () => {
    fixture = await startFixture()
  })
  afterEach(() => fixture.dispose())

  it('refuses a deeply nested frame before parsing it, with a typed answer; the socket stays usable', async () => {
    const client = await fixture.connect()
    const started = performance.now()
    // 1 MiB of nesting: under the size limit, far over the depth limit.
    client.send(deepRequest(7, 512 * 1024))
    const refused = await client.waitForFrame(
      (frame) => frame.kind === 'response' && frame.id === 7,
      'the answer to the deep frame',
    )
    expect(performance.now() - started).toBeLessThan(2000)
    expect(refused).toMatchObject({
      ok: false,
      error: {
        code: 'invalid-argument',
        message: expect.stringContaining(`${MAX_JSON_DEPTH} levels`),
      },
    })
    expect(await client.request('getInfo')).toMatchObject({ ok: true })
  })

  it('closes with 1008 and a reason when a deep frame has no id it can read', async () => {
    const client = await fixture.connect()
    client.send(`${'['.repeat(100)}${']'.repeat(100)}`)
    const closed = await client.closed
    expect(closed.code).toBe(1008)
    expect(closed.reason).toContain('levels deep')
  })

  it('nesting at the limit inside strings does not count: a bracket-filled chat text is fine', async () => {
    const client = await fixture.connect()
    const text = '['.repeat(10_000)
    client.send({ kind: 'request', id: 3, command: 'getInfo', params: { text } })
    // Answered as an invalid parameter (getInfo takes none), not refused as deep.
    const answer = await client.waitForFrame(
      (frame) => frame.kind === 'response' && frame.id === 3,
      'the answer to frame 3',
    )
    expect(JSON.stringify(answer)).not.toContain('levels deep')
  })

  it('takes a request as large as the largest legitimate one, and closes with 1009 over 2 MiB', async () => {
    const client = await fixture.connect()
    // A chat text of 200,000 characters that all need escaping: the biggest request the
    // contract allows. It gets an answer (no workspace is open), not a closed socket.
    const text = '\u0001'.repeat(200_000)
    const frame = JSON.stringify({ kind: 'request', id: 5, command: 'chat', params: { text } })
    expect(Buffer.byteLength(frame)).toBeLessThan(MAX_REQUEST_FRAME_BYTES)
    client.send(frame)
    const answer = await client.waitForFrame(
      (each) => each.kind === 'response' && each.id === 5,
      'the answer to the big chat',
    )
    expect(answer).toMatchObject({ ok: false })
    client.send('x'.repeat(MAX_REQUEST_FRAME_BYTES + 1))
    expect((await client.closed).code).toBe(1009)
  })
})
