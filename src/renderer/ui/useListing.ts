import { useCallback, useEffect, useState } from 'react'
import { useCommand, type CommandHandle } from './useCommand'

export interface ListingHandle<R> {
  /** The last listing read; null until the first read ends. */
  readonly listing: R | null
  /** Reads it again. */
  readonly refresh: () => Promise<void>
  /** The read itself: its failure (shown inline) and whether it runs. */
  readonly command: CommandHandle<[], R>
}

/**
 * What a dialog lists (templates, schedules): read as it opens, again on `refresh`, and every
 * `everyMs` while open when what it lists also changes by itself.
 */
export function useListing<R>(read: () => Promise<R>, everyMs?: number): ListingHandle<R> {
  const [listing, setListing] = useState<R | null>(null)
  const command = useCommand(read)
  const { run } = command
  const refresh = useCallback(async () => {
    const outcome = await run()
    if (outcome.ok) setListing(outcome.value)
  }, [run])
  useEffect(() => {
    void refresh()
    if (everyMs === undefined) return
    const timer = setInterval(() => void refresh(), everyMs)
    return () => clearInterval(timer)
  }, [refresh, everyMs])
  return { listing, refresh, command }
}
