import { spawnSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { REPO_ROOT } from './processes'

/** What `electron-vite build` writes, and what it is built from. */
const OUTPUTS = [
  'out/main/index.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
  'out/first-view/first-view.mjs',
]
const INPUTS = ['src', 'electron.vite.config.ts', 'resources']

function newestModification(path: string): number {
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  let newest = stats.mtimeMs
  for (const entry of readdirSync(path))
    newest = Math.max(newest, newestModification(join(path, entry)))
  return newest
}

function oldestOutput(): number {
  try {
    return Math.min(...OUTPUTS.map((output) => statSync(join(REPO_ROOT, output)).mtimeMs))
  } catch {
    return -Infinity
  }
}

/**
 * Builds the app (main, preload, renderer) with electron-vite when out/ is missing or older
 * than any source, so a test of the built app never runs a stale one.
 */
export function ensureBuiltApp(): void {
  const newestInput = Math.max(...INPUTS.map((input) => newestModification(join(REPO_ROOT, input))))
  if (oldestOutput() >= newestInput) return
  const build = spawnSync('npx', ['electron-vite', 'build'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 180_000,
    killSignal: 'SIGKILL',
  })
  if (build.status !== 0) {
    throw new Error(`npx electron-vite build failed:\n${build.stdout}\n${build.stderr}`)
  }
}
