import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  diffViewStyleAttributeHashes,
  firstPaintScriptHash,
  productionContentSecurityPolicy,
} from '../../../src/shared/content-security-policy'
import { diffViewStyleAttributes, sha256Source } from '../../helpers/diff-view-styles'

const builtAssets = join(import.meta.dirname, '../../../out/renderer/assets')
const built = existsSync(builtAssets)
if (!built) console.info('Skipping the built-page check: run `npm run build` first.')

const directives = new Map(
  productionContentSecurityPolicy.split('; ').map((directive) => {
    const [name = '', ...sources] = directive.split(' ')
    return [name, sources]
  }),
)

describe('the Content-Security-Policy and the diff component', () => {
  it("allows exactly the diff component's inline style attributes, by hash", () => {
    const expected = diffViewStyleAttributes().map(sha256Source)
    // The word highlight (two colours, several corner shapes) and the empty syntax style.
    expect(expected).toContain(sha256Source(''))
    expect(expected.length).toBeGreaterThan(4)
    expect([...diffViewStyleAttributeHashes].sort()).toEqual([...expected].sort())
    expect(directives.get('style-src-attr')).toEqual([
      "'unsafe-hashes'",
      ...diffViewStyleAttributeHashes,
    ])
  })

  it("allows one inline script, index.html's first-paint script, by its hash", () => {
    const html = readFileSync(join(import.meta.dirname, '../../../src/renderer/index.html'), 'utf8')
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
      (match) => match[1] ?? '',
    )
    expect(inline).toHaveLength(1)
    expect(inline[0]).toContain('first-view-elsewhere')
    expect(sha256Source(inline[0] ?? '')).toBe(firstPaintScriptHash)
    expect(directives.get('script-src')).toEqual(["'self'", firstPaintScriptHash])
  })

  it('allows no other inline script nor inline style element', () => {
    expect(directives.get('style-src')).toEqual(["'self'"])
    expect(productionContentSecurityPolicy).not.toContain('unsafe-inline')
    expect(productionContentSecurityPolicy).not.toContain('unsafe-eval')
  })

  it("index.html's meta tag carries the same policy", () => {
    const html = readFileSync(join(import.meta.dirname, '../../../src/renderer/index.html'), 'utf8')
    expect(html).toContain(`content="${productionContentSecurityPolicy}"`)
  })

  // The library renders a <style data-select-style> per diff, which the policy refuses: the
  // build leaves it out (electron.vite.config.ts), and this reads the bundle that ships.
  it.skipIf(!built)(
    'the built page carries no inline <style> element of the diff component',
    () => {
      const scripts = readdirSync(builtAssets).filter((file) => file.endsWith('.js'))
      const bundle = scripts.map((file) => readFileSync(join(builtAssets, file), 'utf8')).join('\n')
      expect(bundle).toContain('diff-tailwindcss-wrapper')
      expect(bundle).not.toContain('data-select-style')
    },
  )
})
