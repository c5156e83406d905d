import { useEffect } from 'react'
import { useAppStore } from '../store/context'

/**
 * The check command's last run on `name`'s commits (reactions): its state, the commit, and the
 * end of its output on demand. Nothing when no check ran for it.
 */
export function ChangesCheck({ name }: { readonly name: string }) {
  const known = useAppStore((state) => state.reactions !== null)
  const getReactions = useAppStore((state) => state.getReactions)
  const check = useAppStore(
    (state) => state.reactions?.checks.find((candidate) => candidate.agent === name) ?? null,
  )
  useEffect(() => {
    // Asked once; later runs come as `reactions-changed`.
    if (!known) void getReactions().catch(() => undefined)
  }, [known, getReactions])
  if (check === null) return null
  const commit = check.commit?.slice(0, 9) ?? '?'
  return (
    <div className={`changes-check changes-check-${check.state}`} data-testid="changes-check">
      <p>
        <strong>Check</strong> <code>{check.command}</code>:{' '}
        {check.state === 'running' ? 'running' : check.summary} on <code>{commit}</code>
      </p>
      {check.output_tail === '' ? null : (
        <details>
          <summary>The end of its output</summary>
          <pre className="changes-check-output">{check.output_tail}</pre>
        </details>
      )}
    </div>
  )
}
