// Shared helpers of the benchmarks: bundling worker scripts, child processes with a bounded
// life, statistics, and the row format every benchmark reports.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build } from 'esbuild'

export const ROOT = resolve(import.meta.dirname, '../..')
export const BENCH = join(ROOT, 'bench')

/** One line of the results table: a figure next to a reference measured in the same run. */
export interface Row {
  readonly bench: string
  readonly figure: string
  readonly value: number
  readonly unit: string
  readonly reference?: { readonly label: string; readonly value: number; readonly unit: string }
  /** figure / reference, as a plain number (absent without a reference). */
  readonly ratio?: number
  readonly target?: string
  /** true: target met; false: missed; undefined: informative only. */
  readonly pass?: boolean
  readonly note?: string
}

export interface BenchResult {
  readonly name: string
  readonly rows: Row[]
  /** Everything else measured (distributions, breakdowns, profiles), for bench/tmp/details.json. */
  readonly details: Record<string, unknown>
  readonly notes: string[]
}

/** Epoch milliseconds with sub-millisecond precision, comparable across processes. */
export function now(): number {
  return performance.timeOrigin + performance.now()
}

export { setTimeout as sleep } from 'node:timers/promises'

/** Rejects after `milliseconds` with a message naming what took too long. */
export async function within<T>(
  promise: Promise<T>,
  milliseconds: number,
  what: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no result within ${milliseconds} ms`)),
      milliseconds,
    )
  })
  try {
    return await Promise.race([promise, limit])
  } finally {
    clearTimeout(timer)
  }
}

export function tempDirectory(label: string): string {
  return mkdtempSync(join(tmpdir(), `agent-teams-bench-${label}-`))
}

export function removeDirectory(path: string): void {
  rmSync(path, { recursive: true, force: true })
}

/** Bundles bench/workers/<name>.ts into plain .mjs files that start in tens of ms on bare node. */
export async function bundleWorkers(
  names: readonly string[],
): Promise<{ path: (name: string) => string; dispose: () => void }> {
  const directory = tempDirectory('workers')
  await build({
    entryPoints: names.map((name) => join(BENCH, 'workers', `${name}.ts`)),
    outdir: directory,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // jsonc-parser's main is a UMD module that require()s its own parts by computed names, which
    // a bundle cannot follow: its ES module build is bundled instead (as build-cli.mjs does).
    alias: { 'jsonc-parser': join(ROOT, 'node_modules', 'jsonc-parser', 'lib', 'esm', 'main.js') },
    // Some dependencies are CommonJS and require() node built-ins from inside the ESM bundle.
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
    },
  })
  return {
    path: (name) => join(directory, `${name}.mjs`),
    dispose: () => removeDirectory(directory),
  }
}

/** Every process the benchmarks start, so that a failing run leaves none behind. */
const children = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL')
})

export interface Child {
  readonly process: ChildProcess
  /** Complete stdout lines so far. */
  readonly lines: string[]
  /** Resolves with the first stdout line that `match` accepts (or rejects when the child exits). */
  line(match: (line: string) => boolean, timeoutMs: number, what: string): Promise<string>
  /** Resolves with the first stdout line that is a JSON object with this `type`. */
  message<T = Record<string, unknown>>(type: string, timeoutMs: number): Promise<T>
  send(text: string): void
  readonly exited: Promise<number | null>
  stderr(): string
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the child is gone. */
  stop(graceMs?: number): Promise<void>
}

export interface StartOptions {
  readonly nodeArgs?: readonly string[]
  readonly env?: NodeJS.ProcessEnv
  readonly cwd?: string
  /** Gives the child an IPC channel (process.send / process.on('message')). */
  readonly ipc?: boolean
}

/** Starts `node [nodeArgs] script [args]` with piped stdio; its stdout is read line by line. */
export function startNode(
  script: string,
  args: readonly string[],
  options: StartOptions = {},
): Child {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script, ...args], {
    cwd: options.cwd ?? ROOT,
    env: options.env ?? process.env,
    stdio: options.ipc ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'],
  })
  children.add(child)
  const lines: string[] = []
  const waiters = new Set<{ match: (line: string) => boolean; resolve: (line: string) => void }>()
  let partial = ''
  let errors = ''
  child.stdout?.setEncoding('utf8')
  child.stdout?.on('data', (chunk: string) => {
    partial += chunk
    for (;;) {
      const newline = partial.indexOf('\n')
      if (newline === -1) break
      const line = partial.slice(0, newline)
      partial = partial.slice(newline + 1)
      lines.push(line)
      for (const waiter of waiters) {
        if (waiter.match(line)) {
          waiters.delete(waiter)
          waiter.resolve(line)
        }
      }
    }
  })
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    errors = (errors + chunk).slice(-20_000)
  })
  child.stdin?.on('error', () => undefined)
  const exited = new Promise<number | null>((done) =>
    child.once('exit', (code) => {
      children.delete(child)
      done(code)
    }),
  )
  const line = (match: (line: string) => boolean, timeoutMs: number, what: string) => {
    const found = lines.find(match)
    if (found !== undefined) return Promise.resolve(found)
    return within(
      new Promise<string>((resolveLine, reject) => {
        waiters.add({ match, resolve: resolveLine })
        void exited.then((code) =>
          reject(new Error(`${what}: the process exited (${code}) first. stderr:\n${errors}`)),
        )
      }),
      timeoutMs,
      `${what} (stderr so far: ${errors.slice(-2000)})`,
    )
  }
  const message = async <T>(type: string, timeoutMs: number): Promise<T> => {
    const text = await line(
      (candidate) => candidate.startsWith('{') && candidate.includes(`"type":"${type}"`),
      timeoutMs,
      `${script} message ${type}`,
    )
    return JSON.parse(text) as T
  }
  const stop = async (graceMs = 5000): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
    await exited
    clearTimeout(timer)
  }
  return {
    process: child,
    lines,
    line,
    message,
    send: (text) => void child.stdin?.write(text),
    exited,
    stderr: () => errors,
    stop,
  }
}

/** Writes one JSON line to stdout (a worker's report to the benchmark). */
export function report(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(message)}\n`)
}

/** Resolves on the first stdin line (a worker waits for "go" so start-up is not measured). */
export function firstStdinLine(): Promise<string> {
  return new Promise((resolveLine) => {
    let text = ''
    const onData = (chunk: Buffer): void => {
      text += chunk.toString()
      const newline = text.indexOf('\n')
      if (newline === -1) return
      process.stdin.off('data', onData)
      process.stdin.destroy()
      resolveLine(text.slice(0, newline))
    }
    process.stdin.on('data', onData)
  })
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  // Nearest rank: p99 of 200 values is the 198th.
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)))
  return sorted[rank - 1] as number
}

export function median(values: readonly number[]): number {
  return percentile(values, 50)
}

export function mean(values: readonly number[]): number {
  return values.length === 0
    ? Number.NaN
    : values.reduce((sum, value) => sum + value, 0) / values.length
}

export function round(value: number, digits = 2): number {
  if (!Number.isFinite(value)) return value
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

/** A figure with its reference and the ratio between them. */
export function row(
  base: Omit<Row, 'ratio' | 'reference'> & {
    reference?: { label: string; value: number; unit?: string }
  },
): Row {
  const reference = base.reference
    ? {
        label: base.reference.label,
        value: base.reference.value,
        unit: base.reference.unit ?? base.unit,
      }
    : undefined
  return {
    ...base,
    reference,
    ratio: reference && reference.value !== 0 ? base.value / reference.value : undefined,
  }
}

/** Prints progress to stderr, so stdout stays the table. */
const started = performance.now()
export function log(message: string): void {
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6)
  process.stderr.write(`[bench ${seconds} s] ${message}\n`)
}
