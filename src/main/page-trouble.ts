/** What went wrong with the window's page (Electron's render-process-gone and unresponsive). */
export type PageTrouble =
  | { readonly kind: 'gone'; readonly reason: string; readonly exitCode: number }
  | { readonly kind: 'unresponsive' }

/** The question put to the person; `reload` is the index of the Reload button. */
export interface TroublePrompt {
  readonly type: 'error' | 'warning'
  readonly message: string
  readonly detail: string
  readonly buttons: string[]
  readonly defaultId: number
  readonly cancelId: number
  readonly reload: number
}

/**
 * A crashed or hung page offers Reload instead of leaving a blank or frozen window. The team
 * runs in main, not in the page: reloading loses nothing but the page's scroll position. A
 * clean exit (the window closing) asks nothing.
 */
export function troublePrompt(trouble: PageTrouble): TroublePrompt | null {
  if (trouble.kind === 'unresponsive') {
    return {
      type: 'warning',
      message: 'The window is not responding.',
      detail: 'The team keeps working in the background. Wait for the window, or reload it.',
      buttons: ['Reload', 'Wait'],
      defaultId: 1,
      cancelId: 1,
      reload: 0,
    }
  }
  if (trouble.reason === 'clean-exit') return null
  return {
    type: 'error',
    message: 'The window’s page stopped.',
    detail: `Its process ended (${trouble.reason}, exit code ${trouble.exitCode}). The team kept working; reload the window to see it again.`,
    buttons: ['Reload', 'Close'],
    defaultId: 0,
    cancelId: 1,
    reload: 0,
  }
}
