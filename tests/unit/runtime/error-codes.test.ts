import { describe, expect, it } from 'vitest'
import { text } from '../../../src/offline-model/script'
import { TeamError } from '../../../src/shared/errors'
import { agentScript } from '../../helpers/agents'
import { startHost } from '../../helpers/host'

/** The error `run` throws (a test failure when it throws none, or not a TeamError). */
function thrown(run: () => unknown): TeamError {
  try {
    run()
  } catch (error) {
    if (error instanceof TeamError) return error
    throw error
  }
  throw new Error('expected a TeamError')
}

describe('errors are named for what happened', () => {
  it('a closed team refuses with team-closed, not invalid-argument', async () => {
    const team = await startHost(agentScript(() => text('Ready.')))
    await team.host.close()
    for (const run of [
      () => team.host.chat('Hello?'),
      () => team.host.resume('lead'),
      () => team.host.send({ to: 'lead', content: 'x' }),
    ])
      expect(thrown(run)).toMatchObject({ code: 'team-closed', message: 'The team is closed.' })
  })

  it('an agent off the roster is unknown-agent; a recipient off it stays unknown-recipient', async () => {
    const team = await startHost(agentScript(() => text('Ready.')))
    expect(thrown(() => team.host.resume('zed'))).toMatchObject({
      code: 'unknown-agent',
      message: '"zed" is not on the roster.',
    })
    expect(thrown(() => team.host.requestShutdown('zed'))).toMatchObject({ code: 'unknown-agent' })
    expect(thrown(() => team.host.send({ to: 'zed', content: 'x' }))).toMatchObject({
      code: 'unknown-recipient',
    })
  })

  it('a shutdown asked of a teammate already shut down is member-shut-down', async () => {
    const team = await startHost(agentScript(() => text('Ready.')))
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait.' })
    await team.host.whenIdle()
    team.host.team.setStatus('alice', 'shutdown', 'test: shut down')
    expect(thrown(() => team.host.requestShutdown('alice'))).toMatchObject({
      code: 'member-shut-down',
    })
  })
})
