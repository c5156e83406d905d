import { describe, expect, it } from 'vitest'
import { queueScript, text, toolCall } from '../../../../src/offline-model/script'
import { addUsage, NO_USAGE } from '../../../../src/shared/usage'
import { startHost } from '../../../helpers/host'
import { asAgent, clientFor, offlineServers, request } from '../../../helpers/offline-harness'

const startServer = offlineServers()

type Block = Record<string, unknown>

/** Where the request carried `cache_control`: tools, system, message blocks. */
function marks(body: Record<string, unknown>): string[] {
  const found: string[] = []
  ;((body.tools as Block[] | undefined) ?? []).forEach((tool, index) => {
    if (tool.cache_control) found.push(`tools.${index}`)
  })
  const system = body.system
  if (Array.isArray(system))
    (system as Block[]).forEach((block, index) => {
      if (block.cache_control) found.push(`system.${index}`)
    })
  ;(body.messages as { role: string; content: unknown }[]).forEach((message, index) => {
    if (!Array.isArray(message.content)) return
    ;(message.content as Block[]).forEach((block, blockIndex) => {
      if (block.cache_control) found.push(`messages.${index}.${blockIndex}`)
    })
  })
  return found
}

describe('prompt caching', () => {
  it("marks the tools, the system prompt and the last two user turns; each call reads the last call's prompt", async () => {
    const script = queueScript({
      lead: [
        toolCall('bash', { command: 'echo one' }),
        toolCall('bash', { command: 'echo two' }),
        text('done'),
      ],
    })
    const team = await startHost(script)
    team.host.chat('Run two commands.')
    await team.host.whenIdle()
    script.assertConsumed()

    const requests = team.server.requests.filter((entry) => entry.agent === 'lead')
    expect(requests).toHaveLength(3)
    const lastTool = (requests[0]?.body.tools ?? []).length - 1
    expect(marks(requests[0]!.body)).toEqual([`tools.${lastTool}`, 'system.0', 'messages.0.0'])
    // Two user turns from the second call on: the previous one (read now) and the last one.
    expect(marks(requests[1]!.body)).toEqual([
      `tools.${lastTool}`,
      'system.0',
      'messages.0.0',
      'messages.2.0',
    ])
    expect(marks(requests[2]!.body)).toEqual([
      `tools.${lastTool}`,
      'system.0',
      'messages.2.0',
      'messages.4.0',
    ])

    // Each call reads from the cache what the call before it wrote.
    const usages = team.records('lead', 'assistant').map((record) => record.usage)
    expect(usages[0]).toMatchObject({ cache_read_input_tokens: 0 })
    expect(usages[0]!.cache_creation_input_tokens).toBeGreaterThan(0)
    for (const index of [1, 2]) {
      const previous = usages[index - 1]!
      expect(usages[index]!.cache_read_input_tokens).toBe(
        (previous.cache_read_input_tokens ?? 0) + (previous.cache_creation_input_tokens ?? 0),
      )
    }
    // The totals the roster shows carry the cache figures.
    const total = usages.reduce(addUsage, NO_USAGE)
    expect(team.host.roster().lead.usage).toEqual(total)
    expect(total.cache_read_input_tokens).toBeGreaterThan(0)
    const reports = team.events.flatMap((event) =>
      event.type === 'usage-reported' && event.agent === 'lead' ? [event] : [],
    )
    expect(reports.at(-1)?.total).toEqual(total)
  })
})

describe("the endpoint's internal promptCaching: false (the long-session benchmark's reference)", () => {
  const calls = () =>
    queueScript({
      lead: [
        toolCall('bash', { command: 'echo one' }),
        toolCall('bash', { command: 'echo two' }),
        text('done'),
      ],
    })

  it('sends no cache_control mark, so nothing is cached, and the prompt stays the same size', async () => {
    const runs = []
    for (const promptCaching of [false, true]) {
      const script = calls()
      const team = await startHost(script, { endpoint: { promptCaching } })
      team.host.chat('Run two commands.')
      await team.host.whenIdle()
      script.assertConsumed()
      runs.push(team)
    }
    const [plain, cached] = runs as [(typeof runs)[number], (typeof runs)[number]]

    const requests = plain.server.requests.filter((entry) => entry.agent === 'lead')
    expect(requests).toHaveLength(3)
    for (const entry of requests) {
      expect(marks(entry.body)).toEqual([])
      expect(entry.body.system).toEqual([{ type: 'text', text: expect.any(String) }])
    }
    const usages = plain.records('lead', 'assistant').map((record) => record.usage)
    for (const usage of usages)
      expect(usage).toMatchObject({ cache_creation_input_tokens: 0, cache_read_input_tokens: 0 })

    // The same conversation with the marks: the same prompt tokens, billed from the cache.
    const prompt = (usage: (typeof usages)[number]) =>
      usage.input_tokens +
      (usage.cache_creation_input_tokens ?? 0) +
      (usage.cache_read_input_tokens ?? 0)
    const cachedUsages = cached.records('lead', 'assistant').map((record) => record.usage)
    expect(cachedUsages.map(prompt)).toEqual(usages.map(prompt))
    expect(cachedUsages.at(-1)?.cache_read_input_tokens).toBeGreaterThan(0)
  })
})

describe('the offline server accounts for the prompt cache as the API does', () => {
  const system = [
    {
      type: 'text' as const,
      text: 'You are terse. '.repeat(40),
      cache_control: { type: 'ephemeral' as const },
    },
  ]

  it('writes a marked prefix first, reads it after, and bills the unmarked rest as input', async () => {
    const server = await startServer({ script: () => text('ok') })
    const client = clientFor(server)
    const first = await client.messages.create({ ...request(), system })
    expect(first.usage.cache_read_input_tokens).toBe(0)
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(100)
    const second = await client.messages.create({
      ...request([{ role: 'user', content: 'Something else entirely' }]),
      system,
    })
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens)
    expect(second.usage.cache_creation_input_tokens).toBe(0)
    expect(second.usage.input_tokens).toBeGreaterThan(0)
    // A changed prefix is a new entry, whichever model.
    const changed = await client.messages.create({
      ...request(),
      model: 'another-model',
      system,
    })
    expect(changed.usage.cache_read_input_tokens).toBe(0)
  })

  it('writes nothing for a request answered with an error', async () => {
    let calls = 0
    const server = await startServer({
      script: () => (++calls === 1 ? { fault: 'http', status: 529 } : text('ok')),
    })
    const client = clientFor(server)
    await expect(client.messages.create({ ...request(), system })).rejects.toMatchObject({
      status: 529,
    })
    const retried = await client.messages.create({ ...request(), system })
    expect(retried.usage.cache_read_input_tokens).toBe(0)
    expect(retried.usage.cache_creation_input_tokens).toBeGreaterThan(0)
  })

  it('refuses a fifth mark as the API does', async () => {
    const server = await startServer({ script: () => text('ok') })
    const mark = { type: 'ephemeral' as const }
    const content = [1, 2, 3, 4, 5].map((n) => ({
      type: 'text' as const,
      text: `part ${n}`,
      cache_control: mark,
    }))
    await expect(
      clientFor(server).messages.create(request([{ role: 'user', content }]), asAgent('a')),
    ).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(
        'A maximum of 4 blocks with cache_control may be provided. Found 5.',
      ),
    })
  })
})
