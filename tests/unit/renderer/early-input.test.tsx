// @vitest-environment jsdom
import { render } from '@testing-library/react'
import { useEffect, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { counterpartOf } from '../../../src/renderer/first-view/early-input'
import { useFirstViewHandOver } from '../../../src/renderer/first-view/hand-over'
import { APP_ROOT_ID, FIRST_VIEW_ID } from '../../../src/shared/first-view'
import indexPage from '../../../src/renderer/index.html?raw'
import { failOnConsoleErrors } from './render-app'

failOnConsoleErrors()

/** index.html's inline script, run in this window as the browser runs it before painting. */
const inlineScript = (() => {
  const script = /<script>([\s\S]*?)<\/script>/.exec(indexPage)?.[1]
  if (script === undefined) throw new Error('index.html has no inline script')
  return new Function(script) as () => void
})()

/** A small window: a roster of two rows with actions, a transcript, a message box. */
function Window({ log, aliceStop = 'Stop alice' }: { log: string[]; aliceStop?: string }) {
  const act = (what: string) => () => void log.push(what)
  return (
    <div className="app">
      <ul>
        {['lead', 'alice'].map((name) => (
          <li key={name} data-testid={`roster-item-${name}`}>
            <button type="button" title={`Open ${name}`} onClick={act(`open ${name}`)}>
              <span className="roster-name">{name}</span> idle · 12 tokens
            </button>
            <button
              type="button"
              title={name === 'alice' ? aliceStop : `Stop ${name}`}
              onClick={act(`stop ${name}`)}
            >
              Stop
            </button>
            <button type="button" title={`Model of ${name}`} onClick={act(`model ${name}`)}>
              Model…
            </button>
          </li>
        ))}
      </ul>
      <div data-testid="transcript">
        <button type="button" onClick={act('copy')}>
          Copy
        </button>
      </div>
      <textarea aria-label="Message the lead" />
    </div>
  )
}

/** The app: its keyboard handler from the start, its window once `ready`, as the shell does. */
function App({ ready, log }: { ready: boolean; log: string[] }) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      log.push(`key ${event.key}`)
      // A key the app handles itself is marked so, as the shortcuts' handler does.
      if (event.key === 'h') event.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [log])
  return useFirstViewHandOver(ready) ? null : <Window log={log} />
}

/** The page as served: the inline script run, the first view drawn, the app's empty root. */
function servedPage(drawn = <Window log={[]} />): { view: HTMLElement; root: HTMLElement } {
  inlineScript()
  const view = document.createElement('fieldset')
  view.id = FIRST_VIEW_ID
  view.innerHTML = renderToStaticMarkup(drawn)
  const root = document.createElement('div')
  root.id = APP_ROOT_ID
  document.body.append(view, root)
  return { view, root }
}

/** A pointer's click over `target`: the view is inert, so the event itself reaches the body. */
function clickOver(target: Element): void {
  document.elementFromPoint = () => target
  document.body.dispatchEvent(new MouseEvent('click', { bubbles: true }))
}

function press(key: string): void {
  document.body.dispatchEvent(
    new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true }),
  )
}

function within(view: HTMLElement, selector: string): Element {
  const element = view.querySelector(selector)
  if (element === null) throw new Error(`no ${selector} in the first view`)
  return element
}

afterEach(() => {
  Reflect.get(window, 'agentTeamsEarlyInput')?.take()
  Reflect.deleteProperty(window, 'agentTeamsEarlyInput')
  document.getElementById(FIRST_VIEW_ID)?.remove()
  document.getElementById(APP_ROOT_ID)?.remove()
})

describe('what the person does on the first view, done once the app takes over', () => {
  it("clicks the app's own control at the same place, in order, and nothing before", () => {
    const { view, root } = servedPage()
    const log: string[] = []
    const { rerender } = render(<App ready={false} log={log} />, { container: root })
    clickOver(within(view, '[data-testid="roster-item-alice"] .roster-name'))
    clickOver(within(view, '[title="Model of lead"]'))
    expect(log).toEqual([])
    rerender(<App ready log={log} />)
    expect(log).toEqual(['open alice', 'model lead'])
    expect(view.isConnected).toBe(false)
  })

  it('puts the caret in a field that was clicked', () => {
    const { view, root } = servedPage()
    const log: string[] = []
    const { rerender } = render(<App ready={false} log={log} />, { container: root })
    clickOver(within(view, 'textarea'))
    rerender(<App ready log={log} />)
    expect(document.activeElement).toBe(root.querySelector('textarea'))
  })

  it('sends the keys pressed before the app ran; one it handled itself is not sent again', () => {
    const { root } = servedPage()
    const log: string[] = []
    press('?')
    const { rerender } = render(<App ready={false} log={log} />, { container: root })
    // The app's chunk has run, its window not yet drawn: its handler takes this one at once.
    press('h')
    expect(log).toEqual(['key h'])
    rerender(<App ready log={log} />)
    expect(log).toEqual(['key h', 'key ?'])
  })

  it('keeps nothing once taken: the inline script stops listening', () => {
    const { view, root } = servedPage()
    const recorder = Reflect.get(window, 'agentTeamsEarlyInput') as { take(): unknown[] }
    const log: string[] = []
    const { rerender } = render(<App ready={false} log={log} />, { container: root })
    rerender(<App ready log={log} />)
    expect(Reflect.has(window, 'agentTeamsEarlyInput')).toBe(false)
    const again = document.createElement('fieldset')
    again.id = FIRST_VIEW_ID
    again.innerHTML = view.innerHTML
    document.body.prepend(again)
    clickOver(within(again, '[title="Open lead"]'))
    press('?')
    expect(recorder.take()).toEqual([])
  })

  it('without a first view, takes the recorder all the same and does nothing', () => {
    inlineScript()
    const log: string[] = []
    const root = document.createElement('div')
    root.id = APP_ROOT_ID
    document.body.append(root)
    render(<App ready={false} log={log} />, { container: root })
    expect(Reflect.has(window, 'agentTeamsEarlyInput')).toBe(false)
    expect(log).toEqual([])
  })
})

describe("a first view's control and the app's", () => {
  function pages(drawn: ReactElement, own: ReactElement) {
    const view = document.createElement('fieldset')
    view.innerHTML = renderToStaticMarkup(drawn)
    const root = document.createElement('div')
    root.innerHTML = renderToStaticMarkup(own)
    return { view, root }
  }

  it('are the same at the same place, whatever part of it was hit', () => {
    const { view, root } = pages(<Window log={[]} />, <Window log={[]} />)
    const found = counterpartOf(
      within(view, '[data-testid="roster-item-alice"] .roster-name'),
      view,
      root,
    )
    expect(found).toBe(root.querySelector('[title="Open alice"]'))
  })

  it('are not, once the control there has another name: the click is dropped', () => {
    const same = pages(<Window log={[]} />, <Window log={[]} />)
    expect(counterpartOf(within(same.view, '[title="Stop alice"]'), same.view, same.root)).toBe(
      same.root.querySelector('[title="Stop alice"]'),
    )
    // alice started working meanwhile: that button is another one now.
    const changed = pages(<Window log={[]} />, <Window log={[]} aliceStop="Stop alice now" />)
    const stop = within(changed.view, '[title="Stop alice"]')
    expect(counterpartOf(stop, changed.view, changed.root)).toBeNull()
  })

  it('are not when the row at that place is another agent now', () => {
    const drawnRow = (
      <ul>
        <li data-testid="roster-item-alice">
          <button type="button">Open</button>
        </li>
      </ul>
    )
    const ownRow = (
      <ul>
        <li data-testid="roster-item-bob">
          <button type="button">Open</button>
        </li>
      </ul>
    )
    const { view, root } = pages(drawnRow, ownRow)
    expect(counterpartOf(within(view, 'button'), view, root)).toBeNull()
  })

  it('are not in a part the first view draws its own way, nor off any control', () => {
    const drawn = (
      <div>
        <div data-first-view-only="">
          <button type="button">Copy</button>
        </div>
        <p>plain text</p>
      </div>
    )
    const { view, root } = pages(drawn, drawn)
    expect(counterpartOf(within(view, 'button'), view, root)).toBeNull()
    expect(counterpartOf(within(view, 'p'), view, root)).toBeNull()
  })
})
