import { BrandMark } from './FirstRun'

/**
 * Shown in place of the team once the server refuses this page's token (browser mode, after
 * `agent-teams serve` was restarted): nothing on a stale page could work, so none of it stays
 * clickable, and the person is told where the new address is.
 */
export function ExpiredAddress() {
  return (
    <div className="splash" data-testid="expired-address">
      <BrandMark large />
      <h1>This address is no longer valid</h1>
      <p role="alert">
        The Agent Teams server was restarted, and each start has an address of its own: this page
        can no longer reach the team.
      </p>
      <p className="muted">
        Open the address <code>agent-teams serve</code> printed when it started (it ends in{' '}
        <code>?token=…</code>). If you no longer have it, stop the server and run{' '}
        <code>agent-teams serve</code> again: it prints the address to open.
      </p>
    </div>
  )
}
