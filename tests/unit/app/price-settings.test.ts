import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AppSettings } from '../../../src/app/app-settings'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import { commands } from '../../../src/shared/contract'
import { TeamError } from '../../../src/shared/errors'
import type { PriceOverrides } from '../../../src/shared/prices'
import { tempWorkspace } from '../../helpers/workspace'

function appSettings(): { settings: AppSettings; file: string } {
  const { dir } = tempWorkspace('agent-teams-prices-')
  const file = join(dir, 'settings.json')
  return { settings: new AppSettings(dir, plainFileSecretStore(file), {}), file }
}

const mine = { input: 2, output: 8, cacheWrite: 2.5, cacheRead: 0.2 }

describe('prices in the settings', () => {
  it('are saved, shown, and replaced as a whole; {} goes back to the list prices', async () => {
    const { settings, file } = appSettings()
    expect(settings.view().prices).toEqual({})
    const view = await settings.save({ prices: { 'my-model': mine }, model: 'my-model' })
    expect(view.prices).toEqual({ 'my-model': mine })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      model: 'my-model',
      prices: { 'my-model': mine },
    })
    // Other settings keep the prices.
    expect((await settings.save({ leadWakesOnMessages: false })).prices).toEqual({
      'my-model': mine,
    })
    expect((await settings.save({ prices: {} })).prices).toEqual({})
    expect(JSON.parse(readFileSync(file, 'utf8'))).not.toHaveProperty('prices')
  })

  it('refuse hostile prices with a clear error, through the contract and the settings both', async () => {
    const { settings, file } = appSettings()
    await settings.save({ prices: { 'my-model': mine } })
    const before = readFileSync(file, 'utf8')
    const hostile: unknown[] = [
      { 'my-model': { ...mine, input: -1 } },
      { 'my-model': { ...mine, output: Number.NaN } },
      { 'my-model': { ...mine, cacheRead: '0.1' } },
      { 'my model': mine },
      { 'my-model': { input: 1 } },
    ]
    for (const prices of hostile) {
      expect(commands.saveSettings.params.safeParse({ prices }).success).toBe(false)
      const saving = settings.save({ prices: prices as PriceOverrides })
      await expect(saving).rejects.toBeInstanceOf(TeamError)
      await expect(settings.save({ prices: prices as PriceOverrides })).rejects.toThrow(
        /^The prices are invalid: /,
      )
    }
    expect(readFileSync(file, 'utf8')).toBe(before)
    await expect(
      settings.save({ prices: { 'my-model': { ...mine, output: 20_000 } } }),
    ).rejects.toThrow(
      'The prices are invalid: my-model.output: Too big: expected number to be <=10000',
    )
  })

  it('a settings file with a bad price says which one, and is not overwritten', () => {
    const { settings, file } = appSettings()
    const text = JSON.stringify({ model: 'm', prices: { m: { ...mine, input: 'free' } } })
    writeFileSync(file, text)
    expect(() => settings.view()).toThrow(/settings file .* is invalid: prices\.m\.input: /)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })
})
