import { spawn } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { toConversation } from '../../../../src/runtime/agents/conversation'
import { readTranscript } from '../../../../src/runtime/agents/transcript-store'
import { OfflineModelServer } from '../../../../src/offline-model/offline-server'
import { validateConversation } from '../../../../src/offline-model/requests'
import { text, toolCall, type Script } from '../../../../src/offline-model/script'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import { messagesOf, type RequestBlock } from '../../../helpers/agents'
import {
  isSummaryRequest,
  refusedAsTooLong,
  scriptedSummary,
  writeParts,
} from '../../../helpers/compaction'
import { startHost } from '../../../helpers/host'
import { BIN, REPO_ROOT } from '../../../helpers/processes'
import { tempWorkspace } from '../../../helpers/workspace'

const WINDOW = 20_000

describe('a SIGKILL in the middle of a compaction', () => {
  it('leaves a transcript valid for the API, and the restarted agent compacts and goes on', async () => {
    const { dir: workspace } = tempWorkspace()
    const { dir: config } = tempWorkspace('agent-teams-config-')
    writeParts(workspace, 10, 4000, 'FACT: none')
    // The window comes from the settings file, as a person would set it for an unknown model.
    mkdirSync(join(config, 'agent-teams'))
    writeFileSync(
      join(config, 'agent-teams', 'settings.json'),
      JSON.stringify({ contextWindow: WINDOW }),
    )

    // The run to be killed: the lead reads parts until it asks for a summary, and then dies.
    let kill: () => void = () => undefined
    let round = 0
    const dying: Script = (request) => {
      if (isSummaryRequest(request)) {
        kill()
        return text('never delivered')
      }
      round++
      return toolCall('read_file', { path: `parts/part-${round % 10}.txt` })
    }
    const server = await OfflineModelServer.start({
      script: dying,
      apiKey: 'test-key',
      contextWindow: WINDOW,
    })
    onTestFinished(() => server.close())
    const child = spawn(
      process.execPath,
      [BIN, 'chat', 'Read the parts one by one.', '--workspace', workspace],
      {
        cwd: REPO_ROOT,
        stdio: 'ignore',
        env: {
          ...process.env,
          NO_COLOR: '1',
          ANTHROPIC_API_KEY: 'test-key',
          ANTHROPIC_BASE_URL: server.url,
          MODEL_ID: 'offline-test',
          XDG_CONFIG_HOME: config,
        },
      },
    )
    const closed = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('close', (_code, signal) => resolve(signal)),
    )
    kill = () => child.kill('SIGKILL')
    onTestFinished(() => void child.kill('SIGKILL'))
    expect(await closed).toBe('SIGKILL')
    expect(server.requests.filter((request) => isSummaryRequest(request.body))).toHaveLength(1)
    // It compacted at the threshold of the window the setting gave, before any refusal.
    expect(server.requests.filter(refusedAsTooLong)).toEqual([])

    // What the kill left: every record whole, no compaction, a conversation the API takes.
    const transcript = new TeamPaths(workspace).transcript('lead')
    const killed = readTranscript(transcript)
    expect(killed.problems).toEqual([])
    expect(killed.records.filter((record) => record.kind === 'compaction')).toEqual([])
    expect(killed.records.filter((record) => record.kind === 'tool-result')).toHaveLength(round)
    expect(() => validateConversation(toConversation(killed.records))).not.toThrow()

    // Restarted: the lead picks up where it died, compacts, and finishes.
    const restarted: Script = (request) =>
      isSummaryRequest(request) ? scriptedSummary(request) : text('All read.')
    const team = await startHost(restarted, {
      workspace,
      server: { contextWindow: WINDOW },
      endpoint: { contextWindow: WINDOW },
    })
    await team.host.whenIdle()
    const [compaction] = team.records('lead', 'compaction')
    expect(compaction?.through_seq).toBeGreaterThan(0)
    expect(compaction?.tokens_after).toBeLessThan(compaction?.tokens_before ?? 0)
    expect(team.server.requests.filter(refusedAsTooLong)).toEqual([])
    const [resumed] = team.server.requests.filter((request) => !isSummaryRequest(request.body))
    const opening = messagesOf(resumed)[0]?.content as RequestBlock[]
    expect(opening[0]?.text).toContain("You are 'lead', role: lead")
    expect(team.records('lead', 'assistant').at(-1)?.content).toEqual([
      { type: 'text', text: 'All read.' },
    ])
    const records = team.host.transcript('lead').records
    expect(() => validateConversation(toConversation(records))).not.toThrow()
  })
})
