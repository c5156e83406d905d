/**
 * The typed error taxonomy. Errors the model or the person can act on are returned as data
 * (tool results, CLI messages, UI banners); these classes are thrown only across module
 * boundaries inside the runtime and always cross IPC as `{ name, code, message }`.
 */
export const errorCodes = [
  'invalid-name',
  'reserved-name',
  'unknown-recipient',
  'invalid-message-type',
  'invalid-message',
  'message-too-large',
  'inbox-busy',
  'workspace-busy',
  'roster-invalid',
  'roster-conflict',
  'member-working',
  'unmerged-work',
  'unsafe-repository',
  'invalid-argument',
  'io',
] as const

export type ErrorCode = (typeof errorCodes)[number]

export class TeamError extends Error {
  override readonly name = 'TeamError'
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message)
  }
}

export interface SerializedError {
  readonly name: string
  readonly code: ErrorCode | 'internal'
  readonly message: string
}

export function serializeError(error: unknown): SerializedError {
  if (error instanceof TeamError)
    return { name: error.name, code: error.code, message: error.message }
  if (error instanceof Error) return { name: error.name, code: 'internal', message: error.message }
  return { name: 'Error', code: 'internal', message: String(error) }
}

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`)
}
