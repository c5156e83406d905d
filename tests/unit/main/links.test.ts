import { EventEmitter } from 'node:events'
import type { WebContents } from 'electron'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import {
  decideLink,
  installLinkPolicy,
  refusedLinkNotice,
  type LinkPolicyOptions,
} from '../../../src/main/links'
import type { DesktopEvent } from '../../../src/shared/desktop'

const APP = 'app://agent-teams/index.html'
const isAppUrl = (url: string) => url.startsWith('app://agent-teams/')

describe('the external-link policy', () => {
  it.each(['https://example.com/docs?q=1#x', 'http://localhost:3000/', 'mailto:dana@example.com'])(
    'opens %s in the system',
    (url) => {
      expect(decideLink(url, isAppUrl)).toEqual({ kind: 'external', url: new URL(url).href })
    },
  )

  it('keeps the app’s own page in the window', () => {
    expect(decideLink(`${APP}#inbox`, isAppUrl)).toEqual({ kind: 'app' })
  })

  it.each([
    'file:///etc/passwd',
    'javascript:alert(1)',
    'vscode://file/home/dana/x',
    'ms-msdt:/id PCWDiagnostic',
    'data:text/html,<script>alert(1)</script>',
    'smb://server/share',
    'app://someone-else/index.html',
  ])('refuses %s with a reason naming its scheme', (url) => {
    const decision = decideLink(url, isAppUrl)
    expect(decision.kind).toBe('refused')
    if (decision.kind === 'refused') expect(decision.reason).toMatch(/only web .* and mail links/)
  })

  it.each(['not a url', '', 'https//missing-colon', '://x'])('refuses malformed %j', (url) => {
    expect(decideLink(url, isAppUrl)).toEqual({
      kind: 'refused',
      url,
      reason: 'it is not a valid address',
    })
  })

  it('refuses a web link that hides its host behind a user name', () => {
    expect(decideLink('https://bank.example@evil.example/', isAppUrl)).toMatchObject({
      kind: 'refused',
      reason: 'it carries a user name or password',
    })
  })

  it('words the notice for the person, and shortens a very long address', () => {
    const notice = refusedLinkNotice({ url: 'file:///etc/passwd', reason: 'no' })
    expect(notice).toEqual({
      type: 'desktop-notice',
      tone: 'warning',
      title: 'Link not opened',
      message: 'file:///etc/passwd was not opened: no.',
    })
    const long = refusedLinkNotice({ url: `file:///${'a'.repeat(500)}`, reason: 'no' })
    expect(long.type === 'desktop-notice' && long.message.length).toBeLessThan(230)
  })
})

/** A stand-in for WebContents: records the window-open handler and emits navigation events. */
function fakeContents() {
  const emitter = new EventEmitter()
  let openHandler: ((details: { url: string }) => { action: string }) | undefined
  const contents = Object.assign(emitter, {
    setWindowOpenHandler(handler: typeof openHandler) {
      openHandler = handler
    },
  })
  return {
    contents: contents as unknown as WebContents,
    open: (url: string) => openHandler?.({ url }),
    navigate(url: string) {
      let prevented = false
      emitter.emit('will-navigate', { preventDefault: () => (prevented = true) }, url)
      return prevented
    },
  }
}

describe('installLinkPolicy', () => {
  let warn: MockInstance<typeof console.warn>
  beforeEach(() => {
    warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(() => warn.mockRestore())

  function setup(openExternal: LinkPolicyOptions['openExternal'] = async () => undefined) {
    const opened: string[] = []
    const notices: DesktopEvent[] = []
    const fake = fakeContents()
    installLinkPolicy(fake.contents, {
      isAppUrl,
      openExternal: async (url) => {
        opened.push(url)
        await openExternal(url)
      },
      notify: (_contents, event) => notices.push(event),
    })
    return { ...fake, opened, notices }
  }

  it('never opens a window; a web link goes to the system browser', () => {
    const window = setup()
    expect(window.open('https://example.com/')).toEqual({ action: 'deny' })
    expect(window.opened).toEqual(['https://example.com/'])
    expect(window.notices).toEqual([])
  })

  it('a refused link leaves the window where it is and tells the page why', () => {
    const window = setup()
    expect(window.open('file:///etc/passwd')).toEqual({ action: 'deny' })
    expect(window.navigate('javascript:alert(1)')).toBe(true)
    expect(window.opened).toEqual([])
    expect(window.notices.map((notice) => notice.type)).toEqual([
      'desktop-notice',
      'desktop-notice',
    ])
    expect(warn).toHaveBeenCalledTimes(2)
  })

  it('a navigation away goes to the system instead; within the app it proceeds', () => {
    const window = setup()
    expect(window.navigate('https://example.com/')).toBe(true)
    expect(window.opened).toEqual(['https://example.com/'])
    expect(window.navigate(`${APP}#x`)).toBe(false)
  })

  it('says so when the system has no program for a link', async () => {
    const window = setup(async () => {
      throw new Error('no handler')
    })
    window.open('mailto:dana@example.com')
    await new Promise((resolve) => setImmediate(resolve))
    expect(warn).toHaveBeenCalled()
    expect(window.notices).toHaveLength(1)
    expect(JSON.stringify(window.notices[0])).toMatch(/no program/)
  })
})
