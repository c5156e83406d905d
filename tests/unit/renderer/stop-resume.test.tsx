// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, fakeApi, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

async function open(name: string) {
  fireEvent.click(
    within(screen.getByTestId(`roster-item-${name}`)).getByRole('button', {
      name: new RegExp(`^Open ${name}`),
    }),
  )
  return screen.findByRole('heading', { level: 1, name })
}

const header = () => screen.getByRole('main').querySelector('.view-bar') as HTMLElement
const headerButtons = () =>
  within(header())
    .getAllByRole('button')
    .map((button) => button.textContent)

describe('Stop and Resume in the agent’s header', () => {
  it('offers Resume before Stop for a wait, and leaves Stop to the working strip while it works', async () => {
    const api = fakeApi({
      snapshot: snapshot({
        members: [
          agentView('dave', { status: 'waiting', statusReason: 'waiting for plan approval' }),
          agentView('frank', { status: 'working', running: true }),
        ],
      }),
    })
    await renderApp(api)
    await open('dave')
    expect(headerButtons().slice(-2)).toEqual(['Resume', 'Stop'])
    expect(within(header()).getByRole('button', { name: 'Stop' })).toHaveClass('button-danger')

    await open('frank')
    expect(headerButtons()).not.toContain('Stop')
    expect(headerButtons()).not.toContain('Resume')
    await act(async () => {
      fireEvent.click(within(screen.getByRole('main')).getByRole('button', { name: 'Stop' }))
    })
    expect(api.stopAgent).toHaveBeenCalledWith({ name: 'frank' })
  })
})
