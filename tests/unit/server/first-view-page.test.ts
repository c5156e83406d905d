import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { withoutPolicyMeta } from '../../../src/server/browser-server'
import { firstViewPages, type FirstViewPages } from '../../../src/server/first-view-page'
import { productionContentSecurityPolicy } from '../../../src/shared/content-security-policy'
import type { CommandService } from '../../../src/shared/command-service'
import type { HostEvent } from '../../../src/shared/contract'
import { withFirstView } from '../../../src/shared/first-view'

const PAGE = '<!doctype html><body><div id="root"></div><script type="module" src="x.js"></script>'

/** A built page and, beside it, a first-view bundle with `source` as its code. */
function builtPage(source: string | null): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-first-view-'))
  folders.push(root)
  const staticDirectory = join(root, 'renderer')
  mkdirSync(staticDirectory)
  writeFileSync(join(staticDirectory, 'index.html'), PAGE)
  if (source !== null) {
    mkdirSync(join(root, 'first-view'))
    writeFileSync(join(root, 'first-view', 'first-view.mjs'), source)
  }
  return staticDirectory
}

/** Counts its renders in globalThis (each bundle file is a module of its own). */
const COUNTING = (key: string) => `
globalThis[${JSON.stringify(key)}] = 0
export async function renderFirstView(commands) {
  const info = await commands.execute('getInfo', {})
  const n = ++globalThis[${JSON.stringify(key)}]
  return '<p>team ' + info.name + ' $& ' + n + '</p>'
}`

function service(): CommandService & { emit(event: HostEvent): void } {
  const listeners = new Set<(event: HostEvent) => void>()
  return {
    execute: (name) => Promise.resolve(name === 'getInfo' ? { name: 'alpha' } : null),
    onEvent(listener) {
      listeners.add(listener)
      return { dispose: () => listeners.delete(listener) }
    },
    emit: (event) => listeners.forEach((listener) => listener(event)),
  }
}

const folders: string[] = []
const open: FirstViewPages[] = []
afterEach(() => {
  for (const pages of open.splice(0)) pages.close()
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

function pagesOf(staticDirectory: string, host = service(), report = vi.fn(), waitMs?: number) {
  const pages = firstViewPages({ staticDirectory, service: host, report, waitMs })
  open.push(pages)
  return { pages, host, report }
}

const renders = (key: string) => (globalThis as Record<string, unknown>)[key]

describe('withFirstView', () => {
  it('puts the view before the empty root, in a disabled and inert fieldset, taken literally', () => {
    const page = withFirstView(PAGE, '<p>$& $1 team</p>')
    expect(page).toContain(
      '<fieldset id="first-view" class="first-view" disabled inert aria-busy="true"><p>$& $1 team</p></fieldset><div id="root"></div>',
    )
  })

  it('leaves the page as built with nothing to show or no empty root to put it by', () => {
    expect(withFirstView(PAGE, null)).toBe(PAGE)
    expect(withFirstView(PAGE, '')).toBe(PAGE)
    const changed = PAGE.replace('<div id="root"></div>', '<main id="root"></main>')
    expect(withFirstView(changed, '<p>team</p>')).toBe(changed)
  })
})

describe('withoutPolicyMeta', () => {
  const tag = (policy: string) =>
    `<head><meta\n      http-equiv="Content-Security-Policy"\n      content="${policy}"\n    /></head>`

  it('drops the meta tag that states the policy the server sends as a header', () => {
    expect(withoutPolicyMeta(tag(productionContentSecurityPolicy))).toBe('<head></head>')
  })

  it('keeps a meta tag that states any other policy', () => {
    const other = tag("default-src 'none'")
    expect(withoutPolicyMeta(other)).toBe(other)
  })
})

describe('firstViewPages', () => {
  it('draws the team ahead, then serves it until the host reports a change', async () => {
    const key = `renders-${Math.random()}`
    const { pages, host, report } = pagesOf(builtPage(COUNTING(key)))
    // Drawn once without being asked: the first page is then served at once.
    await vi.waitFor(() => expect(renders(key)).toBe(1))
    const first = await pages.page()
    expect(first).toContain('<p>team alpha $& 1</p></fieldset><div id="root"></div>')
    expect(await pages.page()).toBe(first)
    expect(renders(key)).toBe(1)
    host.emit({ type: 'inbox-changed', name: 'lead', change: 'appended', pending: 1 })
    expect(await pages.page()).toContain('<p>team alpha $& 2</p>')
    expect(renders(key)).toBe(2)
    expect(report).not.toHaveBeenCalled()
  })

  it('serves the plain page, and says nothing, where no bundle was built', async () => {
    const { pages, report } = pagesOf(builtPage(null))
    expect(await pages.page()).toBeNull()
    expect(report).not.toHaveBeenCalled()
  })

  it('reports a render that fails, serves the plain page, and tries again next time', async () => {
    const key = `failures-${Math.random()}`
    const { pages, report } = pagesOf(
      builtPage(`
globalThis[${JSON.stringify(key)}] = 0
export async function renderFirstView() {
  globalThis[${JSON.stringify(key)}]++
  throw new Error('the view broke')
}`),
    )
    expect(await pages.page()).toBeNull()
    expect(await pages.page()).toBeNull()
    expect(report).toHaveBeenCalledWith(expect.objectContaining({ message: 'the view broke' }))
    // The drawing ahead, and each page asked for: a failure is never kept.
    expect(renders(key)).toBeGreaterThanOrEqual(2)
  })

  it('serves the plain page when the drawing does not end (a command that never answers)', async () => {
    const { pages, report } = pagesOf(
      builtPage('export function renderFirstView() { return new Promise(() => {}) }'),
      service(),
      vi.fn(),
      50,
    )
    expect(await pages.page()).toBeNull()
    expect(report).not.toHaveBeenCalled()
  })

  it('reports a bundle that is not a first-view bundle, and serves the plain page', async () => {
    const { pages, report } = pagesOf(builtPage('export const something = 1'))
    expect(await pages.page()).toBeNull()
    expect(report).toHaveBeenCalledWith(
      expect.objectContaining({
        message: expect.stringContaining('does not export renderFirstView'),
      }),
    )
  })

  it('reports a bundle that does not load, and serves the plain page', async () => {
    const { pages, report } = pagesOf(builtPage('export const = broken'))
    expect(await pages.page()).toBeNull()
    expect(report).toHaveBeenCalledTimes(1)
  })
})
