// A whole team in one process, for the runtime crash suite: an offline model server with a
// stateless script (each reply follows from the conversation it is sent), and a TeamHost on the
// workspace. SIGKILLed at random by the test and started again until the work is done.
import { setTimeout as sleep } from 'node:timers/promises'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { TeamHost } from '../../../src/runtime/host/host'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import type { ModelRequest, Reply } from '../../../src/offline-model/script'
import { latestResults, mailSeen, toolCalls } from '../../../src/offline-model/scenarios/reading'

const [workspace, stepsText] = process.argv.slice(2) as [string, string]
const STEPS = Number(stepsText)
export const WORKERS = ['w1', 'w2', 'w3']

function leadReply(request: ModelRequest): Reply {
  const calls = toolCalls(request)
  if (!calls.some((call) => call.name === 'spawn_teammate')) {
    return {
      content: WORKERS.map((name) => ({
        type: 'tool_use' as const,
        id: `toolu_lead_spawn_${name}`,
        name: 'spawn_teammate',
        input: { name, role: 'worker', prompt: `Do ${STEPS} steps.` },
      })),
    }
  }
  const results = latestResults(request)
  // A kill during the spawns leaves them answered "interrupted, not run again" (or a teammate in
  // the roster that never got its prompt): spawn those again, as a model would. One that is
  // working already needs nothing.
  const again = results.flatMap((result) => {
    if (result.name !== 'spawn_teammate' || !result.isError) return []
    if (result.content.includes('is working right now')) return []
    const name = calls.find((call) => call.id === result.toolUseId)?.input.name
    return typeof name === 'string' ? [name] : []
  })
  if (again.length > 0) {
    return {
      content: again.map((name) => ({
        type: 'tool_use' as const,
        // Deterministic, so a turn asked for again after a kill gets the same ids.
        id: `toolu_lead_spawn_${name}_${calls.filter((call) => call.input.name === name).length}`,
        name: 'spawn_teammate',
        input: { name, role: 'worker', prompt: `Do ${STEPS} steps.` },
      })),
    }
  }
  if (results.length > 0) return { content: [{ type: 'text', text: 'The workers are on it.' }] }
  return {
    content: [{ type: 'text', text: `Noted ${mailSeen(request, true).length} message(s).` }],
  }
}

function workerReply(agent: string, request: ModelRequest): Reply {
  const step = toolCalls(request).filter((call) => call.name === 'bash').length
  const next = WORKERS[(WORKERS.indexOf(agent) + 1) % WORKERS.length] ?? 'lead'
  if (step < STEPS) {
    // Ids follow from (agent, step): a turn asked for again after a crash gets the same ids,
    // and a call that was recorded once is never made twice.
    return {
      content: [
        {
          type: 'tool_use',
          id: `toolu_${agent}_bash_${step}`,
          name: 'bash',
          input: { command: `echo ${agent}-${step} >> side-effects.txt` },
        },
        {
          type: 'tool_use',
          id: `toolu_${agent}_send_${step}`,
          name: 'send_message',
          input: { to: step % 3 === 0 ? 'lead' : next, content: `${agent}:${step}` },
        },
      ],
    }
  }
  const reported = toolCalls(request).some(
    (call) =>
      call.name === 'send_message' &&
      (call.input as { content?: unknown }).content === `${agent} done`,
  )
  if (!reported)
    return {
      content: [
        {
          type: 'tool_use',
          id: `toolu_${agent}_done`,
          name: 'send_message',
          input: { to: 'lead', content: `${agent} done` },
        },
      ],
    }
  return { content: [{ type: 'text', text: 'All steps done.' }] }
}

const server = await OfflineModelServer.start({
  script: (request, context) =>
    context.agent === 'lead' || context.agent === null
      ? leadReply(request)
      : workerReply(context.agent, request),
  apiKey: 'crash-key',
})
const host = await TeamHost.open({
  workspace,
  endpoint: { apiKey: 'crash-key', baseURL: server.url, model: 'offline', maxRetries: 0 },
  // Each run stands for the person's own, after a crash: their team, trusted.
  trust: { store: null, forRun: true },
})
if (host.transcript('lead').total === 0) host.chat('Start the workers.')
process.stdout.write('ready\n')

const finished = (): boolean => {
  const done = new Set(
    host
      .transcript('lead')
      .records.flatMap((record) =>
        record.kind === 'inbox' ? record.messages.map((message) => message.content) : [],
      ),
  )
  return WORKERS.every((name) => done.has(`${name} done`))
}
for (;;) {
  await host.whenIdle()
  if (finished() && host.roster().members.every((member) => member.status === 'idle')) break
  await sleep(20)
}
await host.close()
await server.close()
writeFileSync(join(workspace, 'done'), '')
