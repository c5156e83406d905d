import { fork, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { REPO_ROOT } from '../../../helpers/processes'

/** One call the built main process made on the electron stand-in. */
export interface CallRecord {
  readonly seq: number
  readonly api: string
  /** Whether the app was ready when the call was made. */
  readonly ready: boolean
  readonly args: unknown[]
}

type StandInMessage =
  | { type: 'record'; record: CallRecord }
  | { type: 'unknown-api'; api: string }
  | { type: 'misuse'; api: string; message: string }
  | { type: 'reply'; id: number; result?: unknown; error?: string }
  | { type: 'loaded' }
  | { type: 'exit'; code: number }

export const MAIN_SCRIPT = join(REPO_ROOT, 'out', 'main', 'index.js')
const REGISTER = join(REPO_ROOT, 'tests', 'unit', 'main', 'electron-stand-in', 'register.mjs')

/**
 * out/main/index.js in a child Node process, with 'electron' resolved to the recording
 * stand-in. Collects every call record, every use of an API the stand-in does not know and
 * every call Electron would refuse, and drives the stand-in with requests.
 */
export class MainProcess {
  readonly records: CallRecord[] = []
  /** APIs main used that the stand-in does not imitate, and calls Electron would refuse. */
  readonly problems: string[] = []
  output = ''
  readonly exited: Promise<number | null>
  readonly loaded: Promise<void>
  private readonly child: ChildProcess
  private nextId = 1
  private readonly pending = new Map<number, (message: StandInMessage) => void>()

  constructor(args: readonly string[], env: NodeJS.ProcessEnv) {
    this.child = fork(MAIN_SCRIPT, [...args], {
      cwd: REPO_ROOT,
      env,
      execArgv: ['--import', REGISTER],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    })
    this.child.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    this.child.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()))
    let loaded: () => void = () => undefined
    let failed: (error: Error) => void = () => undefined
    this.loaded = new Promise((resolve, reject) => {
      loaded = resolve
      failed = reject
      setTimeout(
        () => reject(new Error(`main did not load in 30 s:\n${this.output}`)),
        30_000,
      ).unref()
    })
    this.exited = new Promise((resolve) =>
      this.child.once('close', (code) => {
        // Exiting before its top level finished: an exception there (the output says which).
        failed(new Error(`main exited (${code}) before it loaded:\n${this.output}`))
        resolve(code)
      }),
    )
    this.child.on('message', (message: StandInMessage) => {
      if (message.type === 'record') this.records.push(message.record)
      else if (message.type === 'unknown-api') this.problems.push(`unknown API ${message.api}`)
      else if (message.type === 'misuse') this.problems.push(`${message.api}: ${message.message}`)
      else if (message.type === 'loaded') loaded()
      else if (message.type === 'reply') this.pending.get(message.id)?.(message)
    })
  }

  get pid(): number {
    return this.child.pid ?? -1
  }

  /** Sends a request to the stand-in and waits for its answer. */
  request<T = unknown>(type: string, payload: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id)
        reject(new Error(`No answer to ${type} within 20 s. Output:\n${this.output}`))
      }, 20_000)
      this.pending.set(id, (message) => {
        clearTimeout(timer)
        this.pending.delete(id)
        if (message.type !== 'reply') return
        if (message.error !== undefined) reject(new Error(message.error))
        else resolve(message.result as T)
      })
      this.child.send({ type, id, ...payload })
    })
  }

  calls(api: string): CallRecord[] {
    return this.records.filter((record) => record.api === api)
  }

  /**
   * Resolves once every call main made before the stand-in reads this request is recorded here.
   * Records and replies travel in order over one channel, and main's synchronous work (a window
   * made, its handlers installed) ends before the stand-in reads the next message: a call seen
   * by waitForCall does not mean the calls made right after it have arrived yet.
   */
  async caughtUp(): Promise<void> {
    await this.request('windows')
  }

  /** Waits until main has told a page that its folder is open (`workspace-opened`). */
  async waitForWorkspaceOpened(timeoutMs = 20_000): Promise<void> {
    const opened = (record: CallRecord): boolean =>
      record.api === 'webContents.send' &&
      Array.isArray(record.args[1]) &&
      record.args[1].some((event) => (event as { type?: string }).type === 'workspace-opened')
    const deadline = Date.now() + timeoutMs
    while (!this.records.some(opened)) {
      if (Date.now() > deadline)
        throw new Error(`main never sent workspace-opened. Output:\n${this.output}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  /** Waits until a call to `api` has been recorded. */
  async waitForCall(api: string, timeoutMs = 20_000): Promise<CallRecord> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.calls(api)[0]
      if (found !== undefined) return found
      if (Date.now() > deadline)
        throw new Error(`main never called ${api}. Output:\n${this.output}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL')
  }
}
