import { describe, expect, it } from 'vitest'
import { reduceEvent } from '../../../src/renderer/store/reducer'
import { transcriptLoading } from '../../../src/renderer/store/pages'
import { initialTeamData } from '../../../src/renderer/store/state'
import { own } from '../../../src/shared/own'
import { agentView, snapshot } from './fake-api'

/**
 * The store keys agents, transcripts, inboxes and tool calls by names and ids from outside; a
 * teammate named "constructor" must find its own entry or none, never Object.prototype's.
 */
describe('names that are Object.prototype keys in the store', () => {
  it('a teammate named constructor starts with no transcript, then a loading one, then its events', () => {
    const opened = reduceEvent(initialTeamData, {
      type: 'workspace-opened',
      snapshot: snapshot({ members: [agentView('constructor')] }),
    })
    expect(own(opened.transcripts, 'constructor')).toBeUndefined()
    expect(own(opened.agents, 'constructor')?.name).toBe('constructor')
    const loading = transcriptLoading(opened, 'constructor')
    expect(own(loading.transcripts, 'constructor')).toMatchObject({
      records: [],
      status: 'loading',
    })
    const streamed = reduceEvent(loading, { type: 'text-delta', agent: 'constructor', text: 'hi' })
    expect(own(streamed.live, 'constructor')?.text).toBe('hi')
    const failed = reduceEvent(streamed, {
      type: 'agent-error',
      agent: 'tostring',
      code: 'internal',
      message: 'no such agent',
    })
    expect(own(failed.agents, 'tostring')).toBeUndefined()
  })

  it('own() answers only own keys', () => {
    const record: Record<string, number> = { alice: 1 }
    expect(own(record, 'constructor')).toBeUndefined()
    expect(own(record, '__proto__')).toBeUndefined()
    expect(own(record, 'hasOwnProperty')).toBeUndefined()
    expect(own(record, 'alice')).toBe(1)
  })
})
