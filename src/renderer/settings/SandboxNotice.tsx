import { useEffect, useState } from 'react'
import { useAppStore } from '../store/context'

/**
 * One line in the roster when bash cannot be sandboxed here, so the person sees it without
 * opening the settings (which say why and what to install). Nothing while the sandbox is on.
 */
export function SandboxNotice() {
  const getSandbox = useAppStore((state) => state.getSandbox)
  const openDialog = useAppStore((state) => state.openDialog)
  const [off, setOff] = useState(false)
  useEffect(() => {
    let live = true
    getSandbox().then(
      (view) => {
        // Only a change is set: a sandbox that is on leaves the roster as it was rendered.
        if (live && !view.status.available) setOff(true)
      },
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [getSandbox])
  if (!off) return null
  return (
    <p className="roster-sandbox-off small" role="note">
      bash is not sandboxed on this computer.{' '}
      <button
        type="button"
        className="link-button"
        onClick={() => openDialog({ kind: 'settings' })}
      >
        Why, and what to do
      </button>
    </p>
  )
}
