// Loaded with `node --import` before the built main process: every import of 'electron' resolves
// to the recording stand-in beside this file instead of the real package (whose index.js would
// try to download the Electron binary).
import { registerHooks } from 'node:module'

const standIn = new URL('./electron.mjs', import.meta.url).href

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: standIn, format: 'module', shortCircuit: true }
    return nextResolve(specifier, context)
  },
})
