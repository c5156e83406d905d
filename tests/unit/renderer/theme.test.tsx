// @vitest-environment jsdom
import { fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createThemeController, resolveTheme } from '../../../src/renderer/ui/theme/theme'
import { fakeApi } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()
afterEach(() => {
  localStorage.clear()
  delete document.documentElement.dataset['theme']
})

/** A window whose system setting the test flips, as a person changing it in their OS would. */
function windowWithSystem(light: boolean) {
  const listeners = new Set<() => void>()
  const media = {
    matches: light,
    addEventListener: (_type: string, listener: () => void) => listeners.add(listener),
    removeEventListener: (_type: string, listener: () => void) => listeners.delete(listener),
  }
  const fake = { matchMedia: () => media, localStorage, document } as unknown as Window
  return {
    window: fake,
    flip(next: boolean) {
      media.matches = next
      for (const listener of listeners) listener()
    },
    get listening() {
      return listeners.size
    },
  }
}

describe('the theme', () => {
  it('follows the system until the person chooses one', () => {
    const system = windowWithSystem(true)
    const controller = createThemeController(system.window)
    const stop = controller.start()
    expect(document.documentElement.dataset['theme']).toBe('light')
    system.flip(false)
    expect(document.documentElement.dataset['theme']).toBe('dark')

    controller.choose('light')
    expect(document.documentElement.dataset['theme']).toBe('light')
    system.flip(false)
    expect(document.documentElement.dataset['theme']).toBe('light')
    stop()
    expect(system.listening).toBe(0)
  })

  it('keeps the choice for the next start', () => {
    createThemeController(windowWithSystem(false).window).choose('light')
    const next = createThemeController(windowWithSystem(false).window)
    expect(next.get()).toBe('light')
    next.start()
    expect(document.documentElement.dataset['theme']).toBe('light')
  })

  it('resolves System by the system setting', () => {
    expect(resolveTheme('system', true)).toBe('light')
    expect(resolveTheme('system', false)).toBe('dark')
    expect(resolveTheme('dark', true)).toBe('dark')
  })

  it('switches from the header, for every view at once', async () => {
    await renderApp(fakeApi())
    const select = screen.getByRole('combobox', { name: 'Theme' })
    expect(select).toHaveValue('system')
    fireEvent.change(select, { target: { value: 'light' } })
    expect(document.documentElement.dataset['theme']).toBe('light')
    expect(select).toHaveValue('light')
    fireEvent.change(select, { target: { value: 'dark' } })
    expect(document.documentElement.dataset['theme']).toBe('dark')
    expect(localStorage.getItem('agent-teams.theme')).toBe('dark')
  })
})
