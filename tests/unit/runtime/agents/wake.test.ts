import { spawn } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { conversationText, lastUserTexts, requestsOf } from '../../../helpers/agents'
import { deliveredIds, startHost, type HostUnderTest } from '../../../helpers/host'
import { waitFor } from '../../../helpers/wait'

/** Appends `line` to a file from another process, as a shell `printf >>` would. */
function appendFromShell(file: string, line: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'printf \'%s\\n\' "$1" >> "$2"', 'sh', line, file], {
      stdio: 'ignore',
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`sh exited with ${code}`)),
    )
  })
}

async function idleAlice(team: HostUnderTest): Promise<void> {
  await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Wait for work.' })
  await team.host.whenIdle()
  expect(team.host.roster().members[0]).toMatchObject({ status: 'idle', running: false })
}

function inboxContents(team: HostUnderTest, name: string): string[] {
  return team
    .records(name, 'inbox')
    .flatMap((record) => record.messages)
    .map((message) => message.content)
}

describe('idle agents wake by themselves', () => {
  it('an idle teammate wakes on host.send', async () => {
    const script = queueScript({ alice: [text('Waiting.'), text('Got the task.')] })
    const team = await startHost(script)
    await idleAlice(team)

    team.host.send({ to: 'alice', content: 'Here is a task for you.' })
    await waitFor(
      () => inboxContents(team, 'alice').includes('Here is a task for you.'),
      () => 'the message in alice transcript',
    )
    await team.host.whenIdle()
    script.assertConsumed()
    const second = requestsOf(team, 'alice')[1]
    expect(lastUserTexts(second).join('')).toContain('Here is a task for you.')
    expect(team.host.roster().members[0]?.status).toBe('idle')
    expect(new Set(deliveredIds(team, 'alice')).size).toBe(1)
  })

  it('an idle teammate wakes on a line another process appends to its inbox file', async () => {
    const script = queueScript({ alice: [text('Waiting.'), text('Read the note.')] })
    const team = await startHost(script)
    await idleAlice(team)

    // Only s09's four fields, as the tutorial's own code writes them.
    const line = JSON.stringify({
      type: 'message',
      from: 'lead',
      content: 'note from a shell',
      timestamp: 1700000000.5,
    })
    await appendFromShell(`${team.workspace}/.team/inbox/alice.jsonl`, line)
    await waitFor(
      () => inboxContents(team, 'alice').includes('note from a shell'),
      () => 'the appended line in alice transcript',
      { timeout: 5000 },
    )
    await team.host.whenIdle()
    script.assertConsumed()

    const messages = team.records('alice', 'inbox').flatMap((record) => record.messages)
    expect(messages.map((message) => [message.from, message.type, message.content])).toEqual([
      ['lead', 'message', 'note from a shell'],
    ])
    expect(messages[0]?.id).toEqual(expect.any(String))
    expect(lastUserTexts(requestsOf(team, 'alice')[1]).join('')).toContain('note from a shell')
    expect(team.host.roster().members[0]?.status).toBe('idle')
    const page = await team.host.inbox('alice')
    expect(page.entries.map((entry) => entry.state)).toEqual(['delivered'])
  })

  it("the lead wakes by itself on a teammate's message (the default)", async () => {
    const script = queueScript({
      alice: [toolCall('send_message', { to: 'lead', content: 'report: all done' }), text('Sent.')],
      lead: [text('alice says she is done.')],
    })
    const team = await startHost(script)
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Report to the lead.' })
    await team.host.whenIdle()
    await waitFor(
      () => requestsOf(team, 'lead').length === 1,
      () => 'the lead to wake',
    )
    await team.host.whenIdle()
    script.assertConsumed()

    const texts = lastUserTexts(requestsOf(team, 'lead')[0])
    const wrapped = texts.find((entry) => entry.includes('report: all done'))
    expect(wrapped).toMatch(/^<inbox>.*<\/inbox>$/s)
    expect(wrapped).toContain('"from":"alice"')
    expect(team.records('lead', 'user')).toEqual([])
    expect(team.host.roster().lead.status).toBe('idle')
  })

  it('with leadWakesOnMessages: false the message waits for the next chat, wrapped in <inbox>', async () => {
    const script = queueScript({
      alice: [toolCall('send_message', { to: 'lead', content: 'report: all done' }), text('Sent.')],
      lead: [text('Yes: alice reported.')],
    })
    const team = await startHost(script, { leadWakesOnMessages: false })
    await team.host.spawn({ name: 'alice', role: 'coder', prompt: 'Report to the lead.' })
    await team.host.whenIdle()
    // Let the watcher see the lead's inbox change too: it must not wake the lead either.
    await waitFor(
      () => team.events.some((event) => event.type === 'inbox-changed' && event.name === 'lead'),
      () => "the watcher's report of the lead's inbox",
      { timeout: 5000 },
    )
    await team.host.whenIdle()
    expect(requestsOf(team, 'lead')).toEqual([])
    expect(team.records('lead', 'inbox')).toEqual([])
    const pending = await team.host.inbox('lead')
    expect(pending.entries.map((entry) => entry.state)).toEqual(['pending'])

    team.host.chat('Any news from alice?')
    await team.host.whenIdle()
    script.assertConsumed()
    const request = requestsOf(team, 'lead')[0]
    const texts = lastUserTexts(request)
    expect(texts).toContain('Any news from alice?')
    const wrapped = texts.find((entry) => entry.includes('report: all done'))
    expect(wrapped).toMatch(/^<inbox>.*<\/inbox>$/s)
    expect(conversationText(request).match(/report: all done/g)).toHaveLength(1)
    expect(deliveredIds(team, 'lead')).toHaveLength(1)
  })
})
