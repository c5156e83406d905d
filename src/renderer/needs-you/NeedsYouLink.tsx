import { useAppStore } from '../store/context'
import { pendingCountOf } from '../store/needs-you'

/**
 * In an agent's view, in place of its status banners: what it waits on you for is in the
 * Needs-you queue, answered there (the banners stay only for states the queue does not hold).
 */
export function NeedsYouLink({ name }: { readonly name: string }) {
  const count = useAppStore((state) => pendingCountOf(state.needsYou, name))
  const showView = useAppStore((state) => state.showView)
  if (count === 0) return null
  return (
    <div className="banner banner-info needs-you-link" role="status">
      <strong>
        {count === 1 ? 'One thing' : `${count} things`} in the Needs-you queue wait
        {count === 1 ? 's' : ''} on you
      </strong>
      <button type="button" className="button button-small" onClick={() => showView('needs-you')}>
        Open Needs you
      </button>
    </div>
  )
}
