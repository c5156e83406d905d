// @vitest-environment jsdom
import { act, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TRANSIENT_NOTICE_MS } from '../../../src/renderer/store/notices'
import { fakeApi } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

afterEach(() => vi.useRealTimers())

describe('the notifications area', () => {
  it('shows news in one corner area; information goes by itself, errors stay', async () => {
    const api = fakeApi()
    await renderApp(api)
    vi.useFakeTimers()
    act(() =>
      api.emit([
        { type: 'desktop-notice', tone: 'info', title: 'Copied', message: 'The reply is copied.' },
        { type: 'desktop-notice', tone: 'error', title: 'Link not opened', message: 'blocked' },
      ]),
    )
    const area = screen.getByRole('region', { name: 'Notifications' })
    expect(within(area).getByText('Copied')).toBeInTheDocument()
    expect(within(area).getByText('Link not opened')).toBeInTheDocument()

    act(() => vi.advanceTimersByTime(TRANSIENT_NOTICE_MS - 100))
    expect(within(area).getByText('Copied')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(200))
    expect(within(area).queryByText('Copied')).toBeNull()
    act(() => vi.advanceTimersByTime(TRANSIENT_NOTICE_MS * 5))
    expect(within(area).getByText('Link not opened')).toBeInTheDocument()
  })

  it('groups rejected lines of one inbox into one notice', async () => {
    const api = fakeApi()
    await renderApp(api)
    act(() =>
      api.emit(
        [0, 10, 20].map((offset) => ({
          type: 'message-rejected' as const,
          inbox: 'lead',
          position: { segment: 1, offset },
          reason: `bad line at ${offset}`,
        })),
      ),
    )
    const area = screen.getByRole('region', { name: 'Notifications' })
    expect(within(area).getAllByRole('alert')).toHaveLength(1)
    expect(within(area).getByText("3 lines in lead's inbox were rejected")).toBeInTheDocument()
    expect(within(area).getByText('The last one: bad line at 20')).toBeInTheDocument()
  })
})
