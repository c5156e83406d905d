import { spawn } from 'node:child_process'
import { StringDecoder } from 'node:string_decoder'
import { TeamError } from '../../shared/errors'
import { bashLaunch, type BashLaunch } from './bash-launch'
import { killProcessTree } from './shell'

export const DEFAULT_BASH_TIMEOUT_MS = 120_000
export const DEFAULT_MAX_OUTPUT_CHARACTERS = 50_000
/** How long the output pipes may stay open after bash itself has exited. */
const DRAIN_AFTER_EXIT_MS = 200

export interface BashOptions {
  readonly cwd: string
  readonly timeoutMs?: number
  readonly maxOutputCharacters?: number
  /** Over the cap, keep the output's last characters instead of its first (a check's tail). */
  readonly keepTail?: boolean
  readonly signal?: AbortSignal
  readonly env?: NodeJS.ProcessEnv
  /** The bash to run (Git for Windows' bash.exe there, see shell.ts); `/bin/bash` otherwise. */
  readonly shell?: string
  /** How to start it, when not `bashLaunch`'s choice: the OS sandbox's wrap (bash-sandbox.ts). */
  readonly launch?: BashLaunch
}

export interface BashResult {
  /** stdout and stderr in arrival order, capped, with a note when something was dropped. */
  readonly output: string
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  readonly aborted: boolean
  readonly truncated: boolean
}

/**
 * Runs `command` with `/bin/bash -c` in its own process group, so that a timeout or an abort can
 * kill everything it started (pipelines, `sleep 100 &`), not just bash. When bash exits, whatever
 * it left running in its group is killed too: a background process that outlives its tool call
 * has no owner, and one holding the output pipe open would otherwise keep the call from ending.
 */
export function runBash(command: string, options: BashOptions): Promise<BashResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS
  const output = new CappedOutput(
    options.maxOutputCharacters ?? DEFAULT_MAX_OUTPUT_CHARACTERS,
    options.keepTail === true,
  )
  if (options.signal?.aborted) return Promise.resolve(output.result(null, null, false, true))

  return new Promise((resolveRun, rejectRun) => {
    // Never spawned straight from this process: its environment holds the API key, and bash
    // could read it as /proc/$PPID/environ. See bash-launch.ts for what each launch covers.
    const launch = options.launch ?? bashLaunch(command, options.shell)
    const child = spawn(launch.file, launch.args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      // Windows: no console window flashing up for each command.
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let timedOut = false
    let aborted = false
    let openStreams = 2
    let exit: { code: number | null; signal: string | null } | null = null
    let drainTimer: NodeJS.Timeout | undefined
    let finished = false

    const killGroup = (): void => {
      if (child.pid !== undefined) killProcessTree(child.pid)
    }
    const finish = (): void => {
      if (finished) return
      finished = true
      clearTimeout(timeoutTimer)
      clearTimeout(drainTimer)
      options.signal?.removeEventListener('abort', onAbort)
      killGroup()
      child.stdout.destroy()
      child.stderr.destroy()
      const { code, signal } = exit ?? { code: null, signal: null }
      resolveRun(output.result(code, signal, timedOut, aborted))
    }
    const onAbort = (): void => {
      aborted = true
      killGroup()
    }
    const timeoutTimer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, timeoutMs)
    options.signal?.addEventListener('abort', onAbort, { once: true })

    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8')
      stream.on('data', (chunk: Buffer) => output.append(decoder.write(chunk)))
      stream.once('close', () => {
        output.append(decoder.end())
        openStreams -= 1
        if (openStreams === 0 && exit !== null) finish()
      })
    }
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      if (openStreams === 0) finish()
      else drainTimer = setTimeout(finish, DRAIN_AFTER_EXIT_MS)
    })
    child.once('error', (error) => {
      clearTimeout(timeoutTimer)
      options.signal?.removeEventListener('abort', onAbort)
      rejectRun(
        new TeamError('io', `bash could not be started in ${options.cwd}: ${error.message}`),
      )
    })
  })
}

/**
 * Keeps the first `limit` characters (or, with `tail`, the last ones) and only counts the rest,
 * so memory stays bounded.
 */
class CappedOutput {
  private kept = ''
  private dropped = 0
  constructor(
    private readonly limit: number,
    private readonly tail = false,
  ) {}

  append(text: string): void {
    if (this.tail) {
      this.appendKeepingTail(text)
      return
    }
    const room = this.limit - this.kept.length
    if (text.length <= room) {
      this.kept += text
      return
    }
    let cut = Math.max(room, 0)
    // Never split a surrogate pair: half an emoji is not valid text.
    if (cut > 0 && /[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1
    this.kept += text.slice(0, cut)
    this.dropped += text.length - cut
  }

  result(
    exitCode: number | null,
    signal: string | null,
    timedOut: boolean,
    aborted: boolean,
  ): BashResult {
    const truncated = this.dropped > 0
    const output = !truncated
      ? this.kept
      : this.tail
        ? `[output truncated: the first ${this.dropped} characters dropped]\n${this.kept}`
        : `${this.kept}\n[output truncated: ${this.dropped} characters dropped]`
    return { output, exitCode, signal, timedOut, aborted, truncated }
  }

  private appendKeepingTail(text: string): void {
    const joined = this.kept + text
    if (joined.length <= this.limit) {
      this.kept = joined
      return
    }
    let cut = joined.length - this.limit
    // Never start on the second half of a surrogate pair.
    if (/[\uDC00-\uDFFF]/.test(joined.charAt(cut))) cut += 1
    this.kept = joined.slice(cut)
    this.dropped += cut
  }
}

export { refusedCommandReason } from './bash-guard'
