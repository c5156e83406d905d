// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { App } from '../../../src/renderer/shell/App'
import { useFirstViewHandOver } from '../../../src/renderer/first-view/hand-over'
import { preloadChunks } from '../../../src/renderer/shell/lazy-component'
import { viewFromHash } from '../../../src/renderer/store/url'
import {
  parseThemePreference,
  resolveTheme,
  THEME_PREFERENCES,
} from '../../../src/renderer/ui/theme/theme'
import { FIRST_VIEW_ID } from '../../../src/shared/first-view'
import { LEAD } from '../../../src/shared/names'
import indexPage from '../../../src/renderer/index.html?raw'
import { fakeApi, userRecord } from './fake-api'
import { giveElementsASize } from './layout'
import { failOnConsoleErrors } from './render-app'

failOnConsoleErrors()
giveElementsASize()

/** The page as the host serves it: the team it drew, before the app's empty root. */
function drawFirstView(): HTMLElement {
  const view = document.createElement('fieldset')
  view.id = FIRST_VIEW_ID
  view.innerHTML = '<p>the team, drawn by the host</p>'
  document.body.prepend(view)
  return view
}

afterEach(() => document.getElementById(FIRST_VIEW_ID)?.remove())

function Probe({ ready }: { readonly ready: boolean }) {
  return useFirstViewHandOver(ready) ? null : <p>the app</p>
}

describe('handing the first view over to the app', () => {
  it('draws nothing while not ready, then replaces the first view in one commit, for good', () => {
    const view = drawFirstView()
    const { rerender } = render(<Probe ready={false} />)
    expect(screen.queryByText('the app')).toBeNull()
    expect(view.isConnected).toBe(true)
    rerender(<Probe ready />)
    expect(screen.getByText('the app')).toBeInTheDocument()
    expect(view.isConnected).toBe(false)
    // The app's own loading states later are its own: it never goes back to drawing nothing.
    rerender(<Probe ready={false} />)
    expect(screen.getByText('the app')).toBeInTheDocument()
  })

  it('without a first view on the page, the app draws at once', () => {
    render(<Probe ready={false} />)
    expect(screen.getByText('the app')).toBeInTheDocument()
  })

  it("the window keeps the first view until the lead's latest page is in, and shows no splash", async () => {
    await preloadChunks()
    const view = drawFirstView()
    let release = (): void => undefined
    const api = fakeApi()
    const latest = userRecord('LATEST-FROM-THE-LEAD')
    api.getTranscript.mockImplementation(
      () =>
        new Promise((resolve) => {
          release = () => resolve({ records: [latest], total: 1 })
        }),
    )
    render(<App api={api} />)
    expect(screen.queryByText('Connecting to the team…')).toBeNull()
    // Booted, the roster could be drawn, but the lead's page is not in: the first view stays.
    await act(async () => {
      await Promise.resolve()
    })
    await screen.findByText('the team, drawn by the host')
    expect(screen.queryByRole('complementary', { name: 'Team' })).toBeNull()
    await act(async () => release())
    expect(await screen.findByText('LATEST-FROM-THE-LEAD')).toBeInTheDocument()
    expect(screen.getByRole('complementary', { name: 'Team' })).toBeInTheDocument()
    expect(view.isConnected).toBe(false)
  })
})

/** index.html's inline script, run in this window as the browser runs it before painting. */
const firstPaint = (() => {
  const script = /<script>([\s\S]*?)<\/script>/.exec(indexPage)?.[1]
  if (script === undefined) throw new Error('index.html has no inline script')
  return new Function(script) as () => void
})()

function runFirstPaint(stored: string | null, systemIsLight: boolean, hash = ''): void {
  localStorage.clear()
  if (stored !== null) localStorage.setItem('agent-teams.theme', stored)
  window.matchMedia = ((query: string) => ({
    matches: query === '(prefers-color-scheme: light)' && systemIsLight,
  })) as unknown as typeof window.matchMedia
  window.history.replaceState(null, '', `/${hash}`)
  document.documentElement.removeAttribute('data-theme')
  document.documentElement.classList.remove('first-view-elsewhere')
  firstPaint()
}

describe("index.html's first-paint script", () => {
  afterEach(() => {
    localStorage.clear()
    document.documentElement.removeAttribute('data-theme')
    document.documentElement.classList.remove('first-view-elsewhere')
  })

  it('applies the theme the app would, for every choice and system setting', () => {
    for (const stored of [null, ...THEME_PREFERENCES, 'purple'])
      for (const systemIsLight of [true, false]) {
        runFirstPaint(stored, systemIsLight)
        expect(document.documentElement.dataset['theme'], `${stored} / ${systemIsLight}`).toBe(
          resolveTheme(parseThemePreference(stored), systemIsLight),
        )
      }
  })

  it("hides the first view whenever the address opens something else than the lead's chat", () => {
    for (const hash of [
      '',
      '#/lead/chat',
      '#/alice/chat',
      '#/lead/inbox',
      '#/bob/activity',
      '#/x',
    ]) {
      runFirstPaint(null, false, hash)
      const wanted = viewFromHash(hash)
      const leadChat = hash === '' || (wanted?.selected === LEAD && wanted.view === 'conversation')
      expect(document.documentElement.classList.contains('first-view-elsewhere'), hash).toBe(
        !leadChat,
      )
    }
  })
})
