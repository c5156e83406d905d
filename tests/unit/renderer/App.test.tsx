// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest'
import { cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest'
import type { AgentTeamsApi, AppInfo } from '../../../src/shared/contract'
import { App } from '../../../src/renderer/App'

/** Installs `api` where the preload would, on window.agentTeams (read-only there too). */
function exposeApi(api: AgentTeamsApi): void {
  Object.defineProperty(window, 'agentTeams', { value: api, configurable: true })
}

function fakeApi(reply: unknown): AgentTeamsApi {
  return { getInfo: vi.fn(async () => reply as AppInfo) }
}

describe('App', () => {
  let consoleError: MockInstance<typeof console.error>

  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error')
  })

  afterEach(() => {
    cleanup()
    Reflect.deleteProperty(window, 'agentTeams')
    // React reports act() problems and render errors through console.error.
    expect(consoleError).not.toHaveBeenCalled()
    consoleError.mockRestore()
  })

  it('says it is not connected when there is no window.agentTeams', () => {
    render(<App />)

    expect(screen.getByRole('heading', { level: 1, name: 'Agent Teams' })).toBeInTheDocument()
    expect(screen.getByText('browser mode: not connected')).toBeInTheDocument()
  })

  it('shows the version and workspace that window.agentTeams reports', async () => {
    const api = fakeApi({ version: '1.2.3', workspace: '/home/lead/project' })
    exposeApi(api)

    render(<App />)

    expect(await screen.findByText('1.2.3')).toBeInTheDocument()
    expect(screen.getByText('/home/lead/project')).toBeInTheDocument()
    expect(screen.getByText('Connected')).toBeInTheDocument()
    expect(screen.queryByText('browser mode: not connected')).not.toBeInTheDocument()
    expect(api.getInfo).toHaveBeenCalled()
  })

  it('reports a reply that does not match the contract instead of showing it', async () => {
    exposeApi(fakeApi({ version: 7 }))

    render(<App />)

    expect(await screen.findByRole('alert')).toHaveTextContent(
      /Could not read the app info: the reply does not match the contract/,
    )
    expect(screen.queryByText('7')).not.toBeInTheDocument()
  })

  it('reports a rejected call', async () => {
    exposeApi({ getInfo: () => Promise.reject(new Error('main is gone')) })

    render(<App />)

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not read the app info: main is gone',
    )
  })
})
