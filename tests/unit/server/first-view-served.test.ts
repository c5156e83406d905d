import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { AppService } from '../../../src/app/app-service'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { TeamPaths } from '../../../src/runtime/team/paths'
import { startBrowserServer, type BrowserServer } from '../../../src/server/browser-server'
import { productionContentSecurityPolicy } from '../../../src/shared/content-security-policy'
import type { TranscriptRecord } from '../../../src/shared/transcript'
import { ensureBuiltApp } from '../../helpers/built-app'
import { REPO_ROOT } from '../../helpers/processes'
import { http } from './fixture'

// The page as built (out/renderer, and out/first-view beside it), served over a real team.
const STATIC = join(REPO_ROOT, 'out', 'renderer')
const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>'

beforeAll(() => ensureBuiltApp(), 240_000)

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

function writeRoster(workspace: string, names: readonly string[]): void {
  const members = names.map((name) => ({
    name,
    role: 'writes the parser',
    status: 'idle',
    created_at: 1,
  }))
  writeFileSync(
    new TeamPaths(workspace).config,
    `${JSON.stringify({ team_name: 'parsers', members })}\n`,
  )
}

function writeTeam(workspace: string): void {
  const paths = new TeamPaths(workspace)
  mkdirSync(paths.root, { recursive: true })
  writeRoster(workspace, ['alice'])
  const at = Date.now() / 1000
  const records: TranscriptRecord[] = [
    { v: 1, seq: 1, at, kind: 'user', from: 'user', text: `Please ${HOSTILE}` },
    {
      v: 1,
      seq: 2,
      at: at + 1,
      kind: 'assistant',
      message_id: 'msg_1',
      model: 'offline',
      content: [
        {
          type: 'text',
          // A table with aligned columns: the Markdown library writes a style for each cell.
          text: 'The parser is **done**.\n\n| file | lines |\n|:--|--:|\n| a.ts | 12 |\n\nLAST-ROW',
        },
      ],
      stop_reason: 'end_turn',
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  ]
  mkdirSync(join(paths.transcript('lead'), '..'), { recursive: true })
  writeFileSync(paths.transcript('lead'), records.map((r) => `${JSON.stringify(r)}\n`).join(''))
}

/** `serve` over that team: with a key (the team opens at once) or without (the first run). */
async function serve(env: NodeJS.ProcessEnv): Promise<BrowserServer & { workspace: string }> {
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-first-view-served-'))
  const workspace = join(root, 'workspace')
  const configDirectory = join(root, 'config')
  mkdirSync(configDirectory)
  writeTeam(workspace)
  const service = await AppService.create({
    mode: 'browser',
    version: '1.2.3',
    configDirectory,
    secrets: plainFileSecretStore(join(configDirectory, 'settings.json')),
    env,
  })
  await service.execute('openWorkspace', { path: workspace })
  const server = await startBrowserServer({ service, staticDirectory: STATIC })
  cleanups.push(async () => {
    await server.close()
    await service.close()
    rmSync(root, { recursive: true, force: true })
  })
  return Object.assign(server, { workspace })
}

async function page(
  server: BrowserServer,
): Promise<{ body: string; view: string; cache: unknown; policy: unknown }> {
  const answer = await http(server.port, `/?token=${encodeURIComponent(server.token)}`)
  expect(answer.status).toBe(200)
  const view = /<fieldset id="first-view"[^>]*>([\s\S]*)<\/fieldset><div id="root"><\/div>/.exec(
    answer.body,
  )
  return {
    body: answer.body,
    view: view?.[1] ?? '',
    cache: answer.headers['cache-control'],
    policy: answer.headers['content-security-policy'],
  }
}

describe('the first view, served', () => {
  it('draws the roster and the lead chat into the page, escaped, under the same policy', async () => {
    const served = await page(await serve({ ANTHROPIC_API_KEY: 'sk-test' }))
    expect(served.view).toContain('data-testid="roster-item-lead"')
    expect(served.view).toContain('data-testid="roster-item-alice"')
    expect(served.view).toContain('writes the parser')
    expect(served.view).toContain('<strong>done</strong>')
    expect(served.view).toContain('LAST-ROW')
    // What an agent or a person wrote is text: never markup, never a script.
    expect(served.view).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(served.view).not.toMatch(/<script\b|<img\b/i)
    // The page's policy refuses inline styles: none is drawn, the table is.
    expect(served.view).toMatch(/<td[^>]*>12<\/td>/)
    expect(served.view).not.toMatch(/<[^>]*\sstyle=/)
    expect(served.cache).toBe('no-store')
    // The policy as a header only: the same text, without the meta tag that slows the paint.
    expect(served.policy).toBe(productionContentSecurityPolicy)
    expect(served.body).not.toContain('http-equiv="Content-Security-Policy"')
    // The page's own script still comes after it, to take over.
    expect(served.body).toMatch(/<script type="module"[^>]*src="\.\/assets\/index-/)
  })

  it('serves the page as built when the window would open on the first run', async () => {
    const served = await page(await serve({}))
    expect(served.view).toBe('')
    expect(served.body).not.toContain('first-view"')
    expect(served.cache).toBe('no-cache')
    expect(served.body).toContain('http-equiv="Content-Security-Policy"')
  })

  it('draws again after a change the host reports, here one made on disk by another process', async () => {
    const server = await serve({ ANTHROPIC_API_KEY: 'sk-test' })
    expect((await page(server)).view).not.toContain('roster-item-bob')
    writeRoster(server.workspace, ['alice', 'bob'])
    await vi.waitFor(async () => expect((await page(server)).view).toContain('roster-item-bob'), {
      timeout: 15_000,
      interval: 100,
    })
  })
})
