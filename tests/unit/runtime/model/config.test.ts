import { mkdirSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  DEFAULT_MODEL,
  loadModelConfig,
  readSettings,
  settingsPath,
} from '../../../../src/runtime/model/config'
import { TeamError } from '../../../../src/shared/errors'
import { tempWorkspace } from '../../../helpers/workspace'

/** A settings file with `content` in a fresh folder; returns its path. */
function settingsFile(content: string | Record<string, unknown>): string {
  const { dir } = tempWorkspace('agent-teams-settings-')
  const path = join(dir, 'settings.json')
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

const fullSettings = {
  apiKey: 'settings-key',
  baseURL: 'http://127.0.0.1:9/settings',
  model: 'settings-model',
}

function missingFile(): string {
  return join(tempWorkspace('agent-teams-settings-').dir, 'absent', 'settings.json')
}

describe('settingsPath', () => {
  it('is agent-teams/settings.json under XDG_CONFIG_HOME', () => {
    expect(settingsPath({ XDG_CONFIG_HOME: '/tmp/xdg-config' })).toBe(
      '/tmp/xdg-config/agent-teams/settings.json',
    )
  })

  it('falls back to ~/.config when XDG_CONFIG_HOME is unset or empty', () => {
    const fallback = join(homedir(), '.config', 'agent-teams', 'settings.json')
    expect(settingsPath({})).toBe(fallback)
    expect(settingsPath({ XDG_CONFIG_HOME: '' })).toBe(fallback)
  })

  it('is where loadModelConfig looks by default', () => {
    const { dir } = tempWorkspace('agent-teams-xdg-')
    mkdirSync(join(dir, 'agent-teams'))
    writeFileSync(join(dir, 'agent-teams', 'settings.json'), JSON.stringify(fullSettings))
    const config = loadModelConfig({ XDG_CONFIG_HOME: dir })
    expect(config).toMatchObject(fullSettings)
    expect(config.sources).toEqual({ apiKey: 'settings', baseURL: 'settings', model: 'settings' })
  })
})

describe('loadModelConfig', () => {
  it('with nothing set: no key, no base URL, the default model', () => {
    const config = loadModelConfig({}, missingFile())
    expect(config).toEqual({
      model: DEFAULT_MODEL,
      sources: { apiKey: 'none', baseURL: 'default', model: 'default' },
    })
    expect('apiKey' in config).toBe(false)
    expect('baseURL' in config).toBe(false)
  })

  it('reads the settings file when the environment has nothing', () => {
    const config = loadModelConfig({}, settingsFile(fullSettings))
    expect(config).toEqual({
      ...fullSettings,
      sources: { apiKey: 'settings', baseURL: 'settings', model: 'settings' },
    })
  })

  it('prefers the environment over the settings file, value by value', () => {
    const path = settingsFile(fullSettings)
    const env = {
      ANTHROPIC_API_KEY: 'env-key',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/env',
      MODEL_ID: 'env-model',
    }
    expect(loadModelConfig(env, path)).toEqual({
      apiKey: 'env-key',
      baseURL: 'http://127.0.0.1:9/env',
      model: 'env-model',
      sources: { apiKey: 'environment', baseURL: 'environment', model: 'environment' },
    })
    // Mixed: each value comes from wherever it is set first.
    expect(loadModelConfig({ MODEL_ID: 'env-model' }, path)).toEqual({
      apiKey: 'settings-key',
      baseURL: 'http://127.0.0.1:9/settings',
      model: 'env-model',
      sources: { apiKey: 'settings', baseURL: 'settings', model: 'environment' },
    })
    expect(loadModelConfig({ ANTHROPIC_API_KEY: 'env-key' }, settingsFile({ model: 'm' }))).toEqual(
      {
        apiKey: 'env-key',
        model: 'm',
        sources: { apiKey: 'environment', baseURL: 'default', model: 'settings' },
      },
    )
  })

  it('treats an empty environment variable as unset', () => {
    const config = loadModelConfig(
      { ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: '', MODEL_ID: '' },
      settingsFile(fullSettings),
    )
    expect(config).toMatchObject(fullSettings)
    expect(config.sources).toEqual({ apiKey: 'settings', baseURL: 'settings', model: 'settings' })
    expect(loadModelConfig({ MODEL_ID: '' }, missingFile()).model).toBe(DEFAULT_MODEL)
  })

  it('the environment alone is enough, without any settings file', () => {
    const config = loadModelConfig({ ANTHROPIC_API_KEY: 'env-key' }, missingFile())
    expect(config).toEqual({
      apiKey: 'env-key',
      model: DEFAULT_MODEL,
      sources: { apiKey: 'environment', baseURL: 'default', model: 'default' },
    })
  })

  it('keeps unknown settings fields without complaint', () => {
    const config = loadModelConfig({}, settingsFile({ ...fullSettings, theme: 'dark' }))
    expect(config.apiKey).toBe('settings-key')
  })
})

describe('readSettings', () => {
  it('a missing file is no settings', () => {
    expect(readSettings(missingFile())).toEqual({})
  })

  it('a file that is not JSON is a TeamError naming the file', () => {
    const path = settingsFile('{"apiKey": ')
    expect(() => readSettings(path)).toThrow(TeamError)
    expect(() => readSettings(path)).toThrow(`The settings file ${path} is not valid JSON`)
  })

  it('a field of the wrong type is a TeamError naming the file and the field', () => {
    const path = settingsFile({ apiKey: 42, model: ['a'] })
    expect(() => readSettings(path)).toThrow(TeamError)
    expect(() => readSettings(path)).toThrow(
      expect.objectContaining({
        code: 'file-invalid',
        message: expect.stringMatching(
          new RegExp(`^The settings file ${path} is invalid: apiKey: .*; model: `),
        ),
      }),
    )
  })

  it('JSON that is not an object is refused', () => {
    for (const content of ['[]', '"key"', 'null', '42']) {
      const path = settingsFile(content)
      expect(() => readSettings(path), content).toThrow(`The settings file ${path} is invalid`)
    }
  })

  it('a folder where the file should be is not silently ignored', () => {
    const { dir } = tempWorkspace('agent-teams-settings-')
    mkdirSync(join(dir, 'settings.json'))
    expect(() => readSettings(join(dir, 'settings.json'))).toThrow(/is a folder, not a file/)
  })
})

describe('the contextWindow setting', () => {
  it('is read for models the built-in table does not know', () => {
    const path = settingsFile({ ...fullSettings, contextWindow: 32_000 })
    expect(loadModelConfig({}, path).contextWindow).toBe(32_000)
    expect(loadModelConfig({}, settingsFile(fullSettings)).contextWindow).toBeUndefined()
  })

  it('refuses a value that is not a whole number of tokens, naming the field', () => {
    for (const contextWindow of ['big', 12.5, 0]) {
      const path = settingsFile({ contextWindow })
      expect(() => readSettings(path)).toThrow(TeamError)
      expect(() => readSettings(path)).toThrow(/contextWindow: /)
    }
  })
})
