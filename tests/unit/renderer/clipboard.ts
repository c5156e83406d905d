import { afterEach, beforeEach } from 'vitest'

/**
 * jsdom has no clipboard: each test gets one that records what was written, as the browser's
 * navigator.clipboard would hold it. `refuse` makes it reject, as a denied permission does.
 */
export function recordingClipboard(): { readonly written: string[]; refuse: boolean } {
  const clipboard = { written: [] as string[], refuse: false }
  beforeEach(() => {
    clipboard.written.length = 0
    clipboard.refuse = false
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: {
        writeText: (text: string) => {
          if (clipboard.refuse) return Promise.reject(new Error('Write permission denied.'))
          clipboard.written.push(text)
          return Promise.resolve()
        },
      },
    })
  })
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'clipboard')
  })
  return clipboard
}
