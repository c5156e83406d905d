// @vitest-environment jsdom
import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi, rejection, settingsView } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const PLAIN_NOTE = 'There is no secret store here: the key is saved in a plain file.'

async function openSettings(api: ReturnType<typeof fakeApi>) {
  await renderApp(api)
  fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
  return screen.findByRole('dialog', { name: 'Settings' })
}

describe('the settings', () => {
  it('shows the plain-file note before anything is saved', async () => {
    const api = fakeApi({
      settings: settingsView({
        apiKeySet: false,
        apiKeySource: 'none',
        secretStorage: 'plain-file',
        secretStorageNote: PLAIN_NOTE,
      }),
    })
    await renderApp(api, 'first-run')
    fireEvent.click(screen.getByRole('button', { name: 'Enter an API key' }))
    await screen.findByRole('dialog', { name: 'Settings' })

    expect(screen.getByText(PLAIN_NOTE)).toBeInTheDocument()
    expect(screen.getByText('No API key is set.')).toBeInTheDocument()
    expect(screen.getByLabelText('API key')).toHaveAttribute('type', 'password')
    expect(api.saveSettings).not.toHaveBeenCalled()
  })

  it('says where a key comes from and never shows it', async () => {
    await openSettings(
      fakeApi({ settings: settingsView({ apiKeySet: true, apiKeySource: 'environment' }) }),
    )
    expect(screen.getByText(/from the ANTHROPIC_API_KEY environment variable/)).toBeInTheDocument()
    expect(screen.getByLabelText('API key')).toHaveValue('')
    expect(screen.queryByText(PLAIN_NOTE)).not.toBeInTheDocument()
  })

  it('saves only what changed', async () => {
    const api = fakeApi()
    await openSettings(api)
    fireEvent.change(screen.getByLabelText('API key'), { target: { value: 'sk-ant-123' } })
    fireEvent.change(screen.getByLabelText('Base URL'), {
      target: { value: 'https://proxy.example' },
    })
    fireEvent.click(screen.getByLabelText(/Use the offline model/))
    fireEvent.click(screen.getByLabelText(/The lead wakes on teammates/))
    expect(screen.getByLabelText('Offline model speed')).toHaveValue('slow')
    fireEvent.change(screen.getByLabelText('Offline model speed'), {
      target: { value: 'instant' },
    })

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    })

    expect(api.saveSettings).toHaveBeenCalledWith({
      apiKey: 'sk-ant-123',
      baseURL: 'https://proxy.example',
      useOfflineModel: true,
      leadWakesOnMessages: false,
      demoSpeed: 'instant',
    })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('shows a refused save inline and stays open', async () => {
    const api = fakeApi()
    api.saveSettings.mockRejectedValueOnce(
      rejection('invalid-argument', 'Invalid parameters for saveSettings: baseURL: Invalid URL'),
    )
    await openSettings(api)
    fireEvent.change(screen.getByLabelText('Base URL'), { target: { value: 'not a url' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    })
    expect(screen.getByRole('alert')).toHaveTextContent('baseURL: Invalid URL')
    expect(screen.getByRole('dialog', { name: 'Settings' })).toBeInTheDocument()
  })

  it('saves a context window for other models, and checks it first', async () => {
    const api = fakeApi({ settings: settingsView({ contextWindow: 32_000 }) })
    await openSettings(api)
    const field = screen.getByLabelText('Context window (tokens)')
    expect(field).toHaveValue('32000')
    fireEvent.change(field, { target: { value: 'a lot' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    })
    expect(screen.getByRole('alert')).toHaveTextContent('a whole number of tokens')
    expect(api.saveSettings).not.toHaveBeenCalled()

    fireEvent.change(field, { target: { value: '128,000' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    })
    expect(api.saveSettings).toHaveBeenLastCalledWith({ contextWindow: 128_000 })
  })

  it('clears the context window when the field is emptied', async () => {
    const api = fakeApi({ settings: settingsView({ contextWindow: 32_000 }) })
    await openSettings(api)
    fireEvent.change(screen.getByLabelText('Context window (tokens)'), { target: { value: '' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    })
    expect(api.saveSettings).toHaveBeenCalledWith({ contextWindow: null })
  })
})
