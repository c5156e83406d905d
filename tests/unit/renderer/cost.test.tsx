// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TranscriptRecord, Usage } from '../../../src/shared/transcript'
import { parseUsd } from '../../../src/renderer/agents/BudgetDialog'
import { parsePriceRows } from '../../../src/renderer/settings/price-rows'
import { turnSpends } from '../../../src/renderer/chat/transcript/turn-spend'
import { agentView, fakeApi, settingsView, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const SONNET = 'claude-sonnet-4-5'
// Sonnet 4.5: 40,000 × $3 + 2,000 × $15 a million = $0.15.
const spent: Usage = { input_tokens: 40_000, output_tokens: 2_000 }

const team = snapshot({
  lead: agentView('lead', { usage: spent, usageByModel: [{ model: SONNET, usage: spent }] }),
  members: [
    agentView('alice', {
      usage: spent,
      usageByModel: [{ model: SONNET, usage: spent }],
      rounds: 2,
      budget: { tokens: null, rounds: null, usd: 5 },
    }),
    agentView('otto', {
      usage: { input_tokens: 900, output_tokens: 100 },
      usageByModel: [{ model: 'local-llama', usage: { input_tokens: 900, output_tokens: 100 } }],
      model: 'local-llama',
    }),
  ],
})

let seq = 0
const user = (text: string): TranscriptRecord => ({
  v: 1,
  seq: ++seq,
  at: 1_700_000_000,
  kind: 'user',
  from: 'user',
  text,
})
const call = (usage: Usage, tool: boolean, model = SONNET): TranscriptRecord => ({
  v: 1,
  seq: ++seq,
  at: 1_700_000_001,
  kind: 'assistant',
  message_id: `msg${seq}`,
  model,
  content: tool
    ? [{ type: 'tool_use', id: `tu${seq}`, name: 'bash', input: { command: 'ls' } }]
    : [{ type: 'text', text: 'Done.' }],
  stop_reason: tool ? 'tool_use' : 'end_turn',
  usage,
})

async function open(name: string) {
  fireEvent.click(
    within(screen.getByTestId(`roster-item-${name}`)).getByRole('button', {
      name: new RegExp(`^Open ${name}`),
    }),
  )
  return screen.findByRole('heading', { level: 1, name })
}

describe('cost beside tokens', () => {
  it('the roster, the header and the activity pane show it; an unknown price as unknown', async () => {
    await renderApp(fakeApi({ snapshot: team }))
    expect(screen.getByTestId('roster-item-alice')).toHaveTextContent('42k · $0.15')
    expect(screen.getByTestId('roster-item-otto')).toHaveTextContent('1.0k · —')
    expect(screen.getByTestId('roster-item-otto')).not.toHaveTextContent('$0')
    // The team: $0.30 priced, and otto's part unknown.
    expect(screen.getByTestId('team-spend')).toHaveTextContent('$0.30 + unknown')

    await open('alice')
    expect(screen.getByTestId('spend')).toHaveTextContent('42k tokens · 2 rounds · $0.15 / $5.00')
    await open('otto')
    expect(screen.getByTestId('spend')).toHaveTextContent('unknown price')
    expect(screen.getByTestId('spend')).toHaveAttribute(
      'title',
      expect.stringMatching(/no price is known for local-llama/),
    )

    fireEvent.click(screen.getByRole('tab', { name: 'Activity' }))
    expect(
      within(screen.getByTestId('activity-pane-alice')).getByTestId('pane-spend'),
    ).toHaveTextContent('42k tokens · $0.15')
    expect(
      within(screen.getByTestId('activity-pane-otto')).getByTestId('pane-spend'),
    ).toHaveTextContent('1.0k tokens · unknown price')
  })

  it('follows usage events, priced per model, and the prices set in Settings', async () => {
    const api = fakeApi({ snapshot: snapshot({ members: [agentView('bob')] }) })
    await renderApp(api)
    const usage: Usage = {
      input_tokens: 1_000,
      cache_creation_input_tokens: 2_000,
      cache_read_input_tokens: 20_000,
      output_tokens: 1_000,
    }
    act(() =>
      api.emit([
        { type: 'usage-reported', agent: 'bob', model: 'claude-haiku-4-5', usage, total: usage },
      ]),
    )
    // Haiku 4.5: 1,000 × $1 + 2,000 × $1.25 + 20,000 × $0.10 + 1,000 × $5 a million = $0.0105.
    expect(screen.getByTestId('roster-item-bob')).toHaveTextContent('24k · $0.01')
    act(() =>
      api.emit([
        {
          type: 'settings-changed',
          settings: settingsView({
            prices: {
              'claude-haiku-4': { input: 100, output: 500, cacheWrite: 125, cacheRead: 10 },
            },
          }),
        },
      ]),
    )
    // A hundred times the price: $1.05.
    expect(screen.getByTestId('roster-item-bob')).toHaveTextContent('24k · $1.05')
  })
})

describe('the cost of a chat turn', () => {
  // jsdom lays nothing out: give elements a size so the transcript's virtualizer shows rows.
  const descriptors = ['clientHeight', 'clientWidth'].map(
    (key) => [key, Object.getOwnPropertyDescriptor(HTMLElement.prototype, key)] as const,
  )
  const measure = HTMLElement.prototype.getBoundingClientRect
  beforeAll(() => {
    for (const [key, size] of [
      ['clientHeight', 2000],
      ['clientWidth', 800],
    ] as const)
      Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => size })
    HTMLElement.prototype.getBoundingClientRect = () => DOMRect.fromRect({ width: 800, height: 60 })
  })
  afterAll(() => {
    for (const [key, descriptor] of descriptors)
      if (descriptor) Object.defineProperty(HTMLElement.prototype, key, descriptor)
    HTMLElement.prototype.getBoundingClientRect = measure
  })

  it('each chat turn shows what answering it cost: the calls up to its final answer', async () => {
    const first = user('Build a stats module')
    const second = user('Now test it')
    const records = [
      first,
      call({ input_tokens: 10_000, output_tokens: 1_000 }, true),
      call({ input_tokens: 0, cache_read_input_tokens: 10_000, output_tokens: 1_000 }, false),
      // Woken later by its inbox: not the first turn's.
      call({ input_tokens: 50_000, output_tokens: 0 }, false),
      second,
      call({ input_tokens: 100, output_tokens: 100 }, false, 'local-llama'),
    ]
    const spends = turnSpends(records)
    expect(spends[`u${first.seq}`]?.calls).toBe(2)
    expect(spends[`u${second.seq}`]?.calls).toBe(1)

    await renderApp(fakeApi({ snapshot: team, transcripts: { lead: records } }))
    const turns = await screen.findAllByTestId('turn-spend')
    // 10,000 × $3 + 2,000 × $15 + 10,000 × $0.30 a million = $0.063.
    expect(turns[0]).toHaveTextContent('2 calls · 22k tokens · 45 % cached · $0.06')
    expect(turns[1]).toHaveTextContent('1 call · 200 tokens · unknown price')
  })
})

describe('dollar budgets in the budget dialog', () => {
  it('sends dollars, keeps an empty field as no limit, refuses what is not an amount', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    await open('alice')
    fireEvent.click(screen.getByRole('button', { name: 'Set budget…' }))
    const dialog = screen.getByRole('dialog', { name: 'Budget of alice' })
    const field = within(dialog).getByLabelText('Dollar budget')
    expect(field).toHaveValue('5')
    expect(dialog).toHaveTextContent('Spent so far: $0.15')

    fireEvent.change(field, { target: { value: '-2' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save budget' }))
    })
    expect(api.setBudget).not.toHaveBeenCalled()
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(dialog).toHaveTextContent('Enter an amount of US dollars above 0')

    fireEvent.change(field, { target: { value: '$12.50' } })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save budget' }))
    })
    expect(api.setBudget).toHaveBeenCalledWith({
      name: 'alice',
      tokens: null,
      rounds: null,
      usd: 12.5,
    })
    expect(screen.getByTestId('spend')).toHaveTextContent('$0.15 / $12.50')
  })

  it('says when a dollar budget cannot be enforced for a model without a price', async () => {
    await renderApp(fakeApi({ snapshot: team }))
    await open('otto')
    fireEvent.click(screen.getByRole('button', { name: 'Set budget…' }))
    const dialog = screen.getByRole('dialog', { name: 'Budget of otto' })
    expect(within(dialog).queryByTestId('usd-unenforceable')).not.toBeInTheDocument()
    fireEvent.change(within(dialog).getByLabelText('Dollar budget'), { target: { value: '3' } })
    expect(within(dialog).getByTestId('usd-unenforceable')).toHaveTextContent(
      'No price is known for local-llama: a dollar budget cannot be enforced',
    )
  })

  it('parses amounts strictly', () => {
    expect(parseUsd('')).toEqual({ ok: true, value: null })
    expect(parseUsd(' 0.25 ')).toEqual({ ok: true, value: 0.25 })
    expect(parseUsd('$1,000')).toEqual({ ok: true, value: 1000 })
    for (const bad of [
      '0',
      '-1',
      '1e3',
      'NaN',
      'Infinity',
      'five',
      '1.2.3',
      '2000000',
      '0.1234567',
    ])
      expect(parseUsd(bad), bad).toEqual({ ok: false })
  })
})

describe('prices in Settings', () => {
  async function openSettings(api: ReturnType<typeof fakeApi>) {
    await renderApp(api)
    fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
    return screen.findByRole('dialog', { name: 'Settings' })
  }

  it("shows Claude's list prices and saves a price of the person's own", async () => {
    const api = fakeApi()
    const dialog = await openSettings(api)
    const prices = within(dialog).getByTestId('prices')
    expect(prices).toHaveTextContent('claude-sonnet-4$3$15$3.75$0.3')
    fireEvent.click(within(prices).getByRole('button', { name: 'Add a price' }))
    // A new row starts with the default model.
    expect(within(prices).getByLabelText('Model of price 1')).toHaveValue('claude-test')
    fireEvent.change(within(prices).getByLabelText('Input price of claude-test'), {
      target: { value: '2' },
    })
    fireEvent.change(within(prices).getByLabelText('Output price of claude-test'), {
      target: { value: '8' },
    })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    })
    expect(api.saveSettings).toHaveBeenCalledWith({
      prices: { 'claude-test': { input: 2, output: 8, cacheWrite: 2.5, cacheRead: 0.2 } },
    })
  })

  it('refuses a hostile price with a clear error and saves nothing', async () => {
    const api = fakeApi({
      settings: settingsView({
        prices: { 'my-model': { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 } },
      }),
    })
    const dialog = await openSettings(api)
    const prices = within(dialog).getByTestId('prices')
    expect(within(prices).getByLabelText('Model of price 1')).toHaveValue('my-model')
    fireEvent.change(within(prices).getByLabelText('Output price of my-model'), {
      target: { value: '1e9' },
    })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    })
    expect(api.saveSettings).not.toHaveBeenCalled()
    expect(within(prices).getByRole('alert')).toHaveTextContent(
      'Price 1 (my-model): the output price must be dollars per million tokens, from 0 to 10,000.',
    )
    // Removing it goes back to the list prices: an empty table is saved.
    fireEvent.click(within(prices).getByRole('button', { name: 'Remove the price of my-model' }))
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    })
    expect(api.saveSettings).toHaveBeenCalledWith({ prices: {} })
  })

  it('parses rows: ids by the rule, once each, amounts in range', () => {
    const row = { model: 'm', input: '1', output: '2', cacheWrite: '', cacheRead: '' }
    expect(parsePriceRows([row])).toEqual({
      ok: true,
      prices: { m: { input: 1, output: 2, cacheWrite: 1.25, cacheRead: 0.1 } },
    })
    expect(parsePriceRows([row, row])).toEqual({
      ok: false,
      error: 'Price 2: m has a price already.',
    })
    for (const model of ['', '__proto__', 'a b', 'x'.repeat(201)])
      expect(parsePriceRows([{ ...row, model }]).ok, model).toBe(false)
    for (const input of ['', '-1', 'abc', '10001', 'Infinity'])
      expect(parsePriceRows([{ ...row, input }]).ok, input).toBe(false)
    const own = parsePriceRows([{ ...row, model: 'constructor' }])
    expect(own.ok && Object.hasOwn(own.prices, 'constructor')).toBe(true)
  })
})
