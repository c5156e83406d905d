import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import react from '@vitejs/plugin-react'
import {
  developmentContentSecurityPolicy,
  productionContentSecurityPolicy,
} from './src/shared/content-security-policy'

const contentSecurityPolicyMeta =
  /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"\s*\/?>/i

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
        const match = contentSecurityPolicyMeta.exec(html)
        if (match === null) {
          throw new Error('src/renderer/index.html must declare a Content-Security-Policy meta tag')
        }
        if (match[1] !== productionContentSecurityPolicy) {
          throw new Error(
            'The Content-Security-Policy in src/renderer/index.html differs from ' +
              'productionContentSecurityPolicy in src/shared/content-security-policy.ts',
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
    plugins: [react(), contentSecurityPolicy()],
  },
})
