/** A failed command as the window shows it: the taxonomy's code and its message. */
export interface CommandFailure {
  readonly code: string
  readonly message: string
}

/** Electron wraps a rejected invoke's message; the person should read only the cause. */
const invokePrefix = /^Error invoking remote method '[^']*':\s*(?:[A-Za-z]*Error:\s*)?/

export function describeFailure(error: unknown): CommandFailure {
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown }
    return {
      code: typeof code === 'string' && code.length > 0 ? code : 'error',
      message:
        typeof message === 'string' && message.length > 0
          ? message.replace(invokePrefix, '')
          : String(error),
    }
  }
  return { code: 'error', message: String(error) }
}
