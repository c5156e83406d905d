import { setTimeout as sleep } from 'node:timers/promises'
import type { ModelClient, ModelTurn, StreamObserver, TurnRequest } from '../model/client'
import { TransportSettingError } from '../model/transport'

export interface TurnPolicy {
  /** Attempts for a failure that may pass (429, 5xx, 529, a broken stream), the first included. */
  readonly maxAttempts: number
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  /** A stream silent this long marks the agent stalled (it can then be retried or stopped). */
  readonly stallTimeoutMs: number
}

export const DEFAULT_TURN_POLICY: TurnPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  stallTimeoutMs: 90_000,
}

/** Why a turn could not be had: the endpoint refused the key, or gave up. */
export class TurnFailure extends Error {
  override readonly name = 'TurnFailure'
  constructor(
    readonly kind: 'auth' | 'fatal',
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export interface TurnHooks {
  /** The agent waits (a retry after a failure or a rate limit), with the reason shown. */
  waiting(reason: string, cause: 'retry' | 'unreachable'): void
  /** The agent works again (after a wait or a stall). */
  working(): void
  stalled(reason: string): void
  /** A partial turn was thrown away; the UI clears what had streamed. */
  reset(reason: string): void
}

/**
 * One model turn with the retries the SDK cannot show: the SDK's own retries are off, so that
 * a wait for a rate limit or a retry after an overload is visible as `waiting`, an `error`
 * event in the middle of a stream (which the SDK never retries) is retried too, and a partial
 * turn is never recorded. `retryNow()` on the returned handle abandons the current attempt.
 */
export class ModelTurnRunner {
  /** The attempt streaming now; abandoned by `retryNow()` only while it is stalled. */
  private attempt: { controller: AbortController; stalled: boolean } | null = null
  /** Set while waiting out a back-off: `retryNow()` cuts the wait short. */
  private backoff: AbortController | null = null
  private retryRequested = false

  constructor(
    private readonly policy: TurnPolicy,
    private readonly hooks: TurnHooks,
  ) {}

  /**
   * The person's "retry": a stalled stream is abandoned and asked for again at once, a back-off
   * wait ends now. Either way it buys no extra attempt. False when there is nothing to retry.
   */
  retryNow(): boolean {
    if (this.backoff) {
      this.backoff.abort()
      return true
    }
    if (!this.attempt?.stalled) return false
    this.retryRequested = true
    this.attempt.controller.abort()
    return true
  }

  async run(client: ModelClient, request: TurnRequest, signal: AbortSignal): Promise<ModelTurn> {
    for (let failures = 0; ;) {
      const outcome = await this.attemptOnce(client, request, signal)
      if (outcome.kind === 'turn') return outcome.turn
      if (outcome.kind === 'retried') {
        if (outcome.streamed) this.hooks.reset('retried by the person')
        this.hooks.working()
        continue
      }
      const failure = classify(outcome.error)
      if (failure.kind !== 'retry')
        throw new TurnFailure(failure.kind, failure.code, failure.message)
      failures++
      if (outcome.streamed)
        this.hooks.reset(`${withoutStop(failure.message)}; the turn is asked for again`)
      if (failures >= this.policy.maxAttempts) {
        throw new TurnFailure(
          'fatal',
          failure.code,
          `${failure.message} (gave up after ${failures} attempts)`,
        )
      }
      const wait = Math.max(
        failure.retryAfterMs ?? 0,
        Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (failures - 1)),
      )
      this.hooks.waiting(
        retryNotice(failure.message, wait, failures + 1, this.policy.maxAttempts),
        failure.unreachable === true ? 'unreachable' : 'retry',
      )
      await this.waitOut(wait, signal)
      this.hooks.working()
    }
  }

  /** One request: its turn, or why it ended. The stall watch lives exactly as long as it. */
  private async attemptOnce(
    client: ModelClient,
    request: TurnRequest,
    signal: AbortSignal,
  ): Promise<
    | { kind: 'turn'; turn: ModelTurn }
    | { kind: 'retried' | 'failed'; streamed: boolean; error: unknown }
  > {
    const attempt = { controller: new AbortController(), stalled: false }
    const abort = (): void => attempt.controller.abort()
    signal.addEventListener('abort', abort, { once: true })
    this.attempt = attempt
    let streamed = false
    let stallTimer: NodeJS.Timeout | null = null
    const armStall = (): void => {
      // Re-armed on every event of the stream: one timer, pushed back, not a new one each time.
      if (stallTimer) {
        stallTimer.refresh()
        return
      }
      stallTimer = setTimeout(() => {
        attempt.stalled = true
        this.hooks.stalled(
          `no data from the model for ${formatDuration(this.policy.stallTimeoutMs)}; retry or stop it`,
        )
      }, this.policy.stallTimeoutMs)
    }
    const observer: StreamObserver = {
      onActivity: () => {
        if (attempt.stalled) {
          attempt.stalled = false
          this.hooks.working()
        }
        armStall()
      },
      onText: (text) => {
        streamed = true
        request.observer?.onText?.(text)
      },
      onToolStart: (block) => {
        streamed = true
        request.observer?.onToolStart?.(block)
      },
      onToolInput: (id, partial) => request.observer?.onToolInput?.(id, partial),
    }
    armStall()
    try {
      return {
        kind: 'turn',
        turn: await client.turn({ ...request, signal: attempt.controller.signal, observer }),
      }
    } catch (error) {
      if (signal.aborted) throw error
      const retried = this.retryRequested
      this.retryRequested = false
      return { kind: retried ? 'retried' : 'failed', streamed, error }
    } finally {
      if (stallTimer) clearTimeout(stallTimer)
      signal.removeEventListener('abort', abort)
      this.attempt = null
    }
  }

  private async waitOut(milliseconds: number, signal: AbortSignal): Promise<void> {
    const backoff = new AbortController()
    const abort = (): void => backoff.abort()
    signal.addEventListener('abort', abort, { once: true })
    this.backoff = backoff
    try {
      await sleep(milliseconds, undefined, { signal: backoff.signal })
    } catch {
      if (signal.aborted) throw signal.reason
      // Cut short by the person's retry: go on at once.
    } finally {
      signal.removeEventListener('abort', abort)
      this.backoff = null
    }
  }
}

type Classified =
  | { kind: 'auth' | 'fatal'; code: string; message: string }
  | {
      kind: 'retry'
      code: string
      message: string
      retryAfterMs?: number
      /** No answer from the endpoint at all (as opposed to an answer that says "later"). */
      unreachable?: boolean
    }

/** What a failed request means for the turn. */
export function classify(error: unknown): Classified {
  if (error instanceof TransportSettingError)
    return { kind: 'fatal', code: 'transport-setting', message: error.message }
  const status = (error as { status?: unknown }).status
  const message = apiMessage(error)
  if (typeof status === 'number') {
    const code = `http-${status}`
    if (status === 401 || status === 403)
      return {
        kind: 'auth',
        code,
        message: `The model endpoint refused the API key (${status}): ${message}. Check the key and base URL in Settings.`,
      }
    if (status === 429)
      return {
        kind: 'retry',
        code,
        message: 'The endpoint is rate limiting requests (429)',
        retryAfterMs: retryAfter(error),
      }
    if (status === 408 || status === 409 || status >= 500)
      return {
        kind: 'retry',
        code,
        message: `The endpoint answered ${status}: ${withoutStop(message)}`,
        retryAfterMs: retryAfter(error),
      }
    return { kind: 'fatal', code, message: `The model endpoint answered ${status}: ${message}` }
  }
  const name = error instanceof Error ? error.name : 'Error'
  // No answer at all (refused, reset, DNS, a timeout): the SDK says only "Connection error."
  if (name === 'APIConnectionError' || name === 'APIConnectionTimeoutError')
    return {
      kind: 'retry',
      code: name,
      unreachable: true,
      message:
        name === 'APIConnectionTimeoutError'
          ? 'The model endpoint did not answer in time'
          : `Cannot reach the model endpoint${causeOf(error)}; check the network and the base URL in Settings`,
    }
  // An `error` event after a 200, a dropped connection: the SDK does not retry these.
  return {
    kind: 'retry',
    code: name,
    message: `The model's reply broke off (${withoutStop(message)})`,
  }
}

/** What the person reads while an agent waits to try again: whole sentences, no codes. */
export function retryNotice(
  message: string,
  waitMs: number,
  attempt: number,
  attempts: number,
): string {
  const first = message.charAt(0).toUpperCase() + message.slice(1)
  return `${withoutStop(first)}. Retrying in ${formatDuration(waitMs)} (attempt ${attempt} of ${attempts}).`
}

function withoutStop(text: string): string {
  return text.replace(/[.\s]+$/, '')
}

/** The system's reason under the SDK's "Connection error." (ECONNREFUSED and the like). */
function causeOf(error: unknown): string {
  let cause = (error as { cause?: unknown }).cause
  for (let depth = 0; depth < 4 && cause !== undefined; depth += 1) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === 'string') return ` (${code})`
    cause = (cause as { cause?: unknown }).cause
  }
  return ''
}

function apiMessage(error: unknown): string {
  const inner = (error as { error?: { error?: { message?: unknown } } }).error?.error?.message
  if (typeof inner === 'string') return inner
  return error instanceof Error ? error.message : String(error)
}

function retryAfter(error: unknown): number | undefined {
  const headers = (error as { headers?: { get?: (name: string) => string | null } }).headers
  const milliseconds = Number(headers?.get?.('retry-after-ms'))
  if (Number.isFinite(milliseconds) && milliseconds > 0) return milliseconds
  const value = headers?.get?.('retry-after')
  if (!value) return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined
}

function formatDuration(milliseconds: number): string {
  return milliseconds < 1000
    ? `${milliseconds} ms`
    : `${(milliseconds / 1000).toFixed(milliseconds < 10_000 ? 1 : 0)} s`
}
