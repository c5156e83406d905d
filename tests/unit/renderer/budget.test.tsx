// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { parseLimit } from '../../../src/renderer/agents/BudgetDialog'
import { agentView, fakeApi, rejection, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const paused = "the agent's token budget is used up (5200 of 5000); raise it to resume"

const team = snapshot({
  members: [
    agentView('alice', {
      usage: { input_tokens: 1000, output_tokens: 200 },
      rounds: 3,
      budget: { tokens: 50_000, rounds: 20, usd: null },
    }),
    agentView('bob', { status: 'error', statusReason: 'HTTP 529: overloaded' }),
    agentView('fay', {
      status: 'waiting',
      statusReason: paused,
      statusCause: 'budget',
      usage: { input_tokens: 5000, output_tokens: 200 },
      budget: { tokens: 5000, rounds: null, usd: null },
    }),
  ],
})

async function open(name: string) {
  fireEvent.click(
    within(screen.getByTestId(`roster-item-${name}`)).getByRole('button', {
      name: new RegExp(`^Open ${name}`),
    }),
  )
  return screen.findByRole('heading', { level: 1, name })
}

const header = () => screen.getByRole('main').querySelector('.view-bar') as HTMLElement

describe('budgets', () => {
  it('the agent’s header shows tokens and rounds used against its budget', async () => {
    await renderApp(fakeApi({ snapshot: team }))
    await open('alice')
    expect(screen.getByTestId('spend')).toHaveTextContent('1.2k / 50k tokens · 3 / 20 rounds')
    await open('bob')
    expect(screen.getByTestId('spend')).toHaveTextContent('0 tokens · 0 rounds')
  })

  it('the header counts every prompt token, cached or not, and shows the cached share', async () => {
    const cached = snapshot({
      members: [
        agentView('cid', {
          usage: {
            input_tokens: 500,
            cache_creation_input_tokens: 1_000,
            cache_read_input_tokens: 8_000,
            output_tokens: 500,
          },
          rounds: 4,
        }),
      ],
    })
    await renderApp(fakeApi({ snapshot: cached }))
    await open('cid')
    expect(screen.getByTestId('spend')).toHaveTextContent('10k tokens · 80 % cached · 4 rounds')
  })

  it('Set budget… sends numbers, and null for an empty field', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    await open('alice')
    fireEvent.click(within(header()).getByRole('button', { name: 'Set budget…' }))
    const dialog = screen.getByRole('dialog', { name: 'Budget of alice' })
    expect(within(dialog).getByLabelText('Token budget')).toHaveValue('50000')
    expect(within(dialog).getByLabelText('Round budget')).toHaveValue('20')

    fireEvent.change(within(dialog).getByLabelText('Token budget'), {
      target: { value: '80,000' },
    })
    fireEvent.change(within(dialog).getByLabelText('Round budget'), { target: { value: '' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save budget' }))
    })
    expect(api.setBudget).toHaveBeenCalledWith({
      name: 'alice',
      tokens: 80_000,
      rounds: null,
      usd: null,
    })
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByTestId('spend')).toHaveTextContent('1.2k / 80k tokens · 3 rounds')
  })

  it('refuses a limit that is not a whole number, and shows a refused save', async () => {
    const api = fakeApi({ snapshot: team })
    api.setBudget.mockRejectedValueOnce(rejection('no-workspace', 'Open a workspace first.'))
    await renderApp(api)
    await open('alice')
    fireEvent.click(within(header()).getByRole('button', { name: 'Set budget…' }))
    const dialog = screen.getByRole('dialog', { name: 'Budget of alice' })
    fireEvent.change(within(dialog).getByLabelText('Round budget'), { target: { value: '2.5' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save budget' }))
    })
    expect(api.setBudget).not.toHaveBeenCalled()
    expect(within(dialog).getByLabelText('Round budget')).toHaveAttribute('aria-invalid', 'true')

    fireEvent.change(within(dialog).getByLabelText('Round budget'), { target: { value: '7' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save budget' }))
    })
    expect(api.setBudget).toHaveBeenCalledWith({
      name: 'alice',
      tokens: 50_000,
      rounds: 7,
      usd: null,
    })
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Open a workspace first.')
  })

  it('a budget pause shows its reason and offers Set budget right there', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    const fay = screen.getByTestId('roster-item-fay')
    expect(fay).toHaveTextContent("the agent's token budget is used up (5200 of 5000)")
    expect(screen.getByTestId('status-fay')).toHaveTextContent('Paused')
    expect(within(fay).queryByRole('button', { name: 'Resume' })).not.toBeInTheDocument()

    await open('fay')
    const banner = screen.getByTestId('budget-pause')
    expect(banner).toHaveTextContent('fay is paused')
    expect(banner).toHaveTextContent("the agent's token budget is used up (5200 of 5000)")
    fireEvent.click(within(banner).getByRole('button', { name: 'Set budget…' }))
    const dialog = screen.getByRole('dialog', { name: 'Budget of fay' })
    fireEvent.change(within(dialog).getByLabelText('Token budget'), { target: { value: '' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save budget' }))
    })
    expect(api.setBudget).toHaveBeenCalledWith({
      name: 'fay',
      tokens: null,
      rounds: null,
      usd: null,
    })
  })

  it('the team budget is set from Settings, with name null', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    const settings = await screen.findByRole('dialog', { name: 'Settings' })
    expect(settings).toHaveTextContent('No limit')
    fireEvent.click(within(settings).getByRole('button', { name: 'Set team budget…' }))
    const dialog = screen.getByRole('dialog', { name: 'Team budget' })
    fireEvent.change(within(dialog).getByLabelText('Token budget'), {
      target: { value: '200000' },
    })
    fireEvent.change(within(dialog).getByLabelText('Round budget'), { target: { value: '100' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save budget' }))
    })
    expect(api.setBudget).toHaveBeenCalledWith({
      name: null,
      tokens: 200_000,
      rounds: 100,
      usd: null,
    })
    const line = screen.getByRole('button', { name: /^Team budget/ })
    expect(line).toHaveTextContent('6.4k / 200k tokens')
    expect(line).toHaveTextContent('3 / 100 rounds')
  })

  it('reads limits as typed: empty is no limit, separators are allowed', () => {
    expect(parseLimit('')).toEqual({ ok: true, value: null })
    expect(parseLimit(' 50 000 ')).toEqual({ ok: true, value: 50_000 })
    expect(parseLimit('1_000')).toEqual({ ok: true, value: 1000 })
    expect(parseLimit('0')).toEqual({ ok: false })
    expect(parseLimit('-3')).toEqual({ ok: false })
    expect(parseLimit('5k')).toEqual({ ok: false })
  })
})

describe('resume from the agent’s view', () => {
  it('Resume in the header of an agent that stopped with an error calls resumeAgent', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    await open('bob')
    await act(async () => {
      fireEvent.click(within(header()).getByRole('button', { name: 'Resume' }))
    })
    expect(api.resumeAgent).toHaveBeenCalledWith({ name: 'bob' })
  })

  it('a stalled agent offers Retry and Stop in its header', async () => {
    const api = fakeApi({
      snapshot: snapshot({
        members: [agentView('erin', { status: 'stalled', statusReason: 'silent for 90 s' })],
      }),
    })
    await renderApp(api)
    await open('erin')
    expect(screen.getByRole('main')).toHaveTextContent("erin's model stream went silent")
    await act(async () => {
      fireEvent.click(within(header()).getByRole('button', { name: 'Retry' }))
    })
    expect(api.resumeAgent).toHaveBeenCalledWith({ name: 'erin' })
    await act(async () => {
      fireEvent.click(within(header()).getByRole('button', { name: 'Stop' }))
    })
    expect(api.stopAgent).toHaveBeenCalledWith({ name: 'erin' })
  })
})
