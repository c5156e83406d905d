import { useEffect, useRef } from 'react'
import { useAppStore } from '../store/context'
import { pendingCount, titleWithCount } from '../store/needs-you'

/**
 * In browser mode the tab's title carries the Needs-you count, "(3) Agent Teams", so a tab in
 * the background still says that the team waits on the person. (The desktop app badges its
 * dock or taskbar icon instead.)
 */
export function useNeedsYouTitle(): void {
  const browser = useAppStore((state) => state.info?.mode === 'browser')
  const count = useAppStore((state) => pendingCount(state.needsYou))
  const base = useRef<string | null>(null)
  useEffect(() => {
    if (!browser) return
    base.current ??= document.title.replace(/^\(\d+\) /, '')
    document.title = titleWithCount(base.current, count)
  }, [browser, count])
}
