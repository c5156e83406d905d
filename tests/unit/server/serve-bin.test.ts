import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { DEFAULT_STATIC_DIRECTORY } from '../../../src/cli/serve-command'
import { runAgentTeams } from '../../helpers/bin'
import { BIN, REPO_ROOT } from '../../helpers/processes'
import { http } from './fixture'

const built = existsSync(join(DEFAULT_STATIC_DIRECTORY, 'index.html'))

describe('agent-teams serve (the real binary)', () => {
  // It serves the built renderer; without `npm run build` it can only say "Build the UI first".
  it.skipIf(!built)(
    'runs until SIGINT and exits 0; a second server on the same workspace exits 1 with the reason',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'agent-teams-serve-bin-'))
      onTestFinished(() => rmSync(root, { recursive: true, force: true }))
      const workspace = join(root, 'workspace')
      mkdirSync(workspace)
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        XDG_CONFIG_HOME: join(root, 'config'),
        NO_COLOR: '1',
      }
      delete env.ANTHROPIC_API_KEY
      const child = spawn(process.execPath, [BIN, 'serve', '--workspace', workspace], {
        cwd: REPO_ROOT,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
      onTestFinished(() => void child.kill('SIGKILL'))
      let stdout = ''
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString()
          const found = /running at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(stdout)
          if (found?.[1]) resolve(found[1])
        })
        void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)))
      })
      const address = new URL(url)
      expect((await http(Number(address.port), `/${address.search}`)).status).toBe(200)

      const second = await runAgentTeams(['serve', '--workspace', workspace], {
        env: { XDG_CONFIG_HOME: join(root, 'config') },
        timeoutMs: 20_000,
      })
      expect(second.timedOut).toBe(false)
      expect(second.code).toBe(1)
      expect(second.stderr).toMatch(/^agent-teams serve: The team in .* is already open/)

      child.kill('SIGINT')
      expect(await exited).toBe(0)
      expect(stderr).toBe('')
      expect(stdout).toContain('Open it in a browser; press Ctrl+C to stop.')
    },
  )
})
