import { useCallback, useEffect, useRef, useState } from 'react'
import { describeFailure, type CommandFailure } from '../store/failures'

export type Outcome<R> = { readonly ok: true; readonly value: R } | { readonly ok: false }

export interface CommandHandle<A extends unknown[], R> {
  /** Runs the command; never rejects (a failure lands in `error`). */
  readonly run: (...args: A) => Promise<Outcome<R>>
  readonly pending: boolean
  readonly error: CommandFailure | null
  readonly clearError: () => void
}

/** A command whose failure is shown inline, where it was asked for. */
export function useCommand<A extends unknown[], R>(
  command: (...args: A) => Promise<R>,
): CommandHandle<A, R> {
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<CommandFailure | null>(null)
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])
  const run = useCallback(
    async (...args: A): Promise<Outcome<R>> => {
      setPending(true)
      setError(null)
      try {
        return { ok: true, value: await command(...args) }
      } catch (failure) {
        if (mounted.current) setError(describeFailure(failure))
        return { ok: false }
      } finally {
        if (mounted.current) setPending(false)
      }
    },
    [command],
  )
  const clearError = useCallback(() => setError(null), [])
  return { run, pending, error, clearError }
}
