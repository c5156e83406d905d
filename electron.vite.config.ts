import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { build, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import {
  developmentContentSecurityPolicy,
  firstPaintScriptHash,
  policyMetaTag,
  productionContentSecurityPolicy,
} from './src/shared/content-security-policy'

/** An inline classic script: the policy allows the one whose hash it names. */
const inlineScript = /<script>([\s\S]*?)<\/script>/g

/**
 * Keeps index.html's CSP meta tag equal to the policy main sends as a header: the build fails
 * when they drift. Under the dev server only, swaps in the development policy that React Refresh
 * and hot reload need.
 */
function contentSecurityPolicy(): Plugin {
  return {
    name: 'agent-teams:content-security-policy',
    transformIndexHtml: {
      order: 'pre',
      handler(html, context) {
        const match = policyMetaTag.exec(html)
        if (match === null) {
          throw new Error('src/renderer/index.html must declare a Content-Security-Policy meta tag')
        }
        if (match[1] !== productionContentSecurityPolicy) {
          throw new Error(
            'The Content-Security-Policy in src/renderer/index.html differs from ' +
              'productionContentSecurityPolicy in src/shared/content-security-policy.ts',
          )
        }
        for (const [, script = ''] of html.matchAll(inlineScript)) {
          const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`
          if (hash !== firstPaintScriptHash)
            throw new Error(
              `An inline script of src/renderer/index.html hashes to ${hash}, not to ` +
                'firstPaintScriptHash in src/shared/content-security-policy.ts: update the hash',
            )
        }
        if (context.server === undefined) return html
        return html.replace(
          match[0],
          `<meta http-equiv="Content-Security-Policy" content="${developmentContentSecurityPolicy}" />`,
        )
      },
    },
  }
}

/**
 * @git-diff-view/react renders an inline `<style>` element in each diff and fills it on a mouse
 * press (to keep a text selection on one side). The app's policy allows no inline `<style>`, so
 * Chromium refused it and reported a violation: the elements are left out of the bundle (the
 * component skips its selection rule when the element is missing). The build fails if the
 * library stops rendering them this way, so an upgrade is looked at rather than slipping by.
 */
function diffViewWithoutStyleElements(): Plugin {
  const styleElement = /jsx\("style", \{ "data-select-style": true, ref: ref \}\)/g
  return {
    name: 'agent-teams:diff-view-without-style-elements',
    transform(code, id) {
      if (!/@git-diff-view[/\\]react[/\\]dist[/\\]esm[/\\]index\.mjs$/.test(id.split('?')[0] ?? ''))
        return null
      const found = code.match(styleElement)?.length ?? 0
      if (found !== 3)
        throw new Error(
          `@git-diff-view/react renders ${found} <style data-select-style> elements, not 3: ` +
            'check what it injects against the Content-Security-Policy before upgrading',
        )
      return { code: code.replace(styleElement, 'null'), map: null }
    },
  }
}

/**
 * The first view's bundle (src/shared/first-view.ts), built after the page into `first-view/`
 * beside it (out/first-view/first-view.mjs): the renderer's components for Node, which the host
 * imports on demand to draw the team into the page it serves. Self-contained, as a packaged app
 * ships no node_modules for the renderer; stylesheets are the page's business.
 */
function firstViewBundle(): Plugin {
  let pageDirectory = ''
  return {
    name: 'agent-teams:first-view',
    apply: 'build',
    configResolved(config) {
      pageDirectory = resolve(config.root, config.build.outDir)
    },
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        plugins: [react()],
        build: {
          ssr: resolve('src/renderer/first-view/render.tsx'),
          outDir: resolve(pageDirectory, '..', 'first-view'),
          emptyOutDir: true,
          target: 'node22',
          minify: true,
          rolldownOptions: {
            output: { entryFileNames: 'first-view.mjs', chunkFileNames: '[name]-[hash].mjs' },
          },
        },
        ssr: { noExternal: true, target: 'node' },
      })
    },
  }
}

export default defineConfig({
  main: {
    build: { rolldownOptions: { input: { index: resolve('src/main/index.ts') } } },
  },
  preload: {
    build: {
      // A sandboxed preload can require only 'electron' and a few built-ins, so it must be one
      // self-contained CommonJS file: bundle what it imports and never emit ESM.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve('src/renderer'),
    build: {
      // electron-vite leaves the renderer unminified; minified, the page has less than half the
      // JavaScript to parse and compile before its first paint (1.0 MB -> 0.44 MB).
      minify: true,
      rolldownOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    plugins: [react(), contentSecurityPolicy(), diffViewWithoutStyleElements(), firstViewBundle()],
  },
})
