// A team whose teammate `alice` works in ask mode, for the Needs-you crash test: her model asks
// for one bash command (with a fixed id), then, once it has a result, finishes. The test
// SIGKILLs this process while the command waits for the person and starts it again.
import { TeamHost } from '../../../src/runtime/host/host'
import { OfflineModelServer } from '../../../src/offline-model/offline-server'
import type { ModelRequest, Reply } from '../../../src/offline-model/script'
import { latestResults } from '../../../src/offline-model/scenarios/reading'

const [workspace] = process.argv.slice(2) as [string]

function aliceReply(request: ModelRequest): Reply {
  const result = latestResults(request).find((one) => one.toolUseId === 'toolu_alice_ask')
  if (result === undefined)
    return {
      content: [
        {
          type: 'tool_use',
          id: 'toolu_alice_ask',
          name: 'bash',
          input: { command: 'echo approved >> ran.txt' },
        },
      ],
    }
  return { content: [{ type: 'text', text: result.isError ? 'Not run.' : 'Ran it.' }] }
}

const server = await OfflineModelServer.start({
  script: (request, context) =>
    context.agent === 'alice' ? aliceReply(request) : { content: [{ type: 'text', text: 'Ok.' }] },
  apiKey: 'crash-key',
})
const host = await TeamHost.open({
  workspace,
  endpoint: { apiKey: 'crash-key', baseURL: server.url, model: 'offline', maxRetries: 0 },
  // Each run stands for the person's own, after a crash: their team, trusted.
  trust: { store: null, forRun: true },
})
if (host.roster().members.length === 0)
  await host.spawn({ name: 'alice', role: 'coder', prompt: 'Run the command.', approval: 'ask' })
process.stdout.write('ready\n')
// Runs until killed; a SIGTERM closes it cleanly.
process.once('SIGTERM', () => {
  void host.close().then(() => server.close())
})
