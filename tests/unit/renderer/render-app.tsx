import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, vi, type MockInstance } from 'vitest'
import { App } from '../../../src/renderer/shell/App'
import { preloadChunks } from '../../../src/renderer/shell/lazy-component'
import type { FakeApi } from './fake-api'

/** Renders the window over `api` and waits until it has booted. */
export async function renderApp(api: FakeApi, waitFor: 'team' | 'first-run' = 'team') {
  // The dialogs and views are chunks loaded on first use: loaded here first, a test finds a
  // dialog the moment it opens (the suspending first load is tested in markdown.test.tsx).
  await preloadChunks()
  const view = render(<App api={api} />)
  if (waitFor === 'team') await screen.findByRole('complementary', { name: 'Team' })
  else await screen.findByRole('heading', { name: 'Welcome to Agent Teams' })
  return view
}

/** React reports act() problems and render errors through console.error: a test fails on them. */
export function failOnConsoleErrors(): void {
  let consoleError: MockInstance<typeof console.error>
  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error')
  })
  afterEach(() => {
    cleanup()
    // The window keeps the open agent and tab in the address: the next test starts without it.
    window.history.replaceState(null, '', '/')
    expect(consoleError).not.toHaveBeenCalled()
    consoleError.mockRestore()
  })
}
