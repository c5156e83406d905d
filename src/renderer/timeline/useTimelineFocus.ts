import { useEffect, useRef } from 'react'
import { useAppStore } from '../store/context'
import type { TimelineFocus } from './timeline-store'

/**
 * For the Board and Needs-you views: opens the task or entry a timeline click (or the digest)
 * asked for, once per request.
 */
export function useTimelineFocus(kind: TimelineFocus['kind'], open: (id: string) => void): void {
  const focus = useAppStore((state) => state.timelineFocus)
  const shown = useAppStore((state) => state.timelineFocusShown)
  const callback = useRef(open)
  callback.current = open
  useEffect(() => {
    if (focus === null || focus.kind !== kind) return
    callback.current(focus.id)
    shown()
  }, [focus, kind, shown])
}
