import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { REPO_ROOT } from '../../helpers/processes'
import { sandboxSkipReason } from '../../helpers/sandbox'
import { tempWorkspace } from '../../helpers/workspace'

const skipReason = sandboxSkipReason()
if (skipReason !== null)
  console.info(`[skipped] serve and SIGTERM after a sandboxed command: ${skipReason}`)

const EXIT_MS = 10_000

describe('agent-teams serve and SIGTERM', () => {
  it.skipIf(skipReason !== null)(
    'stops and exits 0 after a sandboxed command, its lock released',
    async () => {
      const { dir: root } = tempWorkspace('agent-teams-serve-signal-')
      const workspace = join(root, 'workspace')
      const page = join(root, 'page')
      for (const folder of [workspace, page, join(root, 'config')]) mkdirSync(folder)
      writeFileSync(join(page, 'index.html'), '<!doctype html><title>ok</title>')
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', join(REPO_ROOT, 'tests/helpers/serve-sandboxed.ts'), workspace, page],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, XDG_CONFIG_HOME: join(root, 'config') },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      onTestFinished(() => void child.kill('SIGKILL'))
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
      let stdout = ''
      let stderr = ''
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString()
          if (stdout.includes('ready ')) resolve()
        })
        void exited.then((code) => reject(new Error(`exited ${code} first: ${stderr}`)))
      })
      expect(stdout).toContain('ready {"content":"sandboxed\\n","isError":false}')

      child.kill('SIGTERM')
      const code = await Promise.race([
        exited,
        new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), EXIT_MS)),
      ])
      expect(code).toBe(0)
      expect(stderr).toBe('')
      expect(existsSync(join(workspace, '.team', 'runtime.lock'))).toBe(false)
    },
    40_000,
  )
})
