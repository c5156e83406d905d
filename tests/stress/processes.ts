import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

const WORKERS = resolve(import.meta.dirname, 'workers')
/**
 * jsonc-parser's main is a UMD module that require()s its own parts by computed names, which a
 * bundle cannot follow: its ES module build is bundled instead (as scripts/build-cli.mjs does).
 */
const JSONC_PARSER_ESM = resolve(
  import.meta.dirname,
  '../../node_modules/jsonc-parser/lib/esm/main.js',
)

/**
 * Bundles the worker scripts into plain .mjs files once, so that each of the hundreds of
 * processes the stress suites start runs on bare node (tens of milliseconds to start).
 */
export async function bundleWorkers(
  names: readonly string[],
): Promise<{ path: (name: string) => string; dispose: () => void }> {
  const directory = mkdtempSync(join(tmpdir(), 'agent-teams-workers-'))
  await build({
    entryPoints: names.map((name) => join(WORKERS, `${name}.ts`)),
    outdir: directory,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    alias: { 'jsonc-parser': JSONC_PARSER_ESM },
    // CommonJS packages in the bundle (undici) require Node's built-ins, which an ES module
    // bundle can only do through a require of its own.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'\nconst require = createRequireForBundle(import.meta.url)",
    },
    logLevel: 'error',
  })
  return {
    path: (name) => join(directory, `${name}.mjs`),
    dispose: () => rmSync(directory, { recursive: true, force: true }),
  }
}

export interface Worker {
  readonly child: ChildProcess
  readonly ready: Promise<void>
  readonly exited: Promise<number | null>
  stderr(): string
}

export function startWorker(script: string, args: readonly string[]): Worker {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: resolve(import.meta.dirname, '../..'),
  })
  let errors = ''
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()))
  const ready = new Promise<void>((resolveReady, reject) => {
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('ready\n')) resolveReady()
    })
    child.once('exit', (code) =>
      reject(new Error(`worker ${script} exited (${code}) before it was ready: ${errors}`)),
    )
  })
  ready.catch(() => undefined)
  const exited = new Promise<number | null>((resolveExit) =>
    child.once('exit', (code) => resolveExit(code)),
  )
  return { child, ready, exited, stderr: () => errors }
}

export async function kill(worker: Worker): Promise<void> {
  worker.child.kill('SIGKILL')
  await worker.exited
}

export { setTimeout as sleep } from 'node:timers/promises'

/** A seeded generator (mulberry32), so that a failing run can be repeated with its seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296
  }
}
