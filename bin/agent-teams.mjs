#!/usr/bin/env node
// The `agent-teams` command. It runs the built CLI (out/cli/main.mjs, written by
// scripts/build-cli.mjs on `npm install`, `npm run build` and `npm test`) when that is up to
// date, and the TypeScript sources through tsx's loader otherwise: after an edit in src/ and
// before the next build, and where the build could not run (an install without esbuild).
// Compiling the sources costs most of a second at every start; the bundle is spared that.
import { readFileSync, statSync } from 'node:fs'
import module from 'node:module'

const BUNDLE = new URL('../out/cli/main.mjs', import.meta.url)
const MANIFEST = new URL('../out/cli/manifest.json', import.meta.url)
const ROOT = new URL('../', import.meta.url)

/**
 * Whether the bundle was built from the sources as they are now: no file it was made from is
 * newer than it (the build dates the bundle to when it started reading them). A file added
 * since is imported by an edited one, so it never goes unnoticed. About a hundred `stat`s.
 */
function bundleIsCurrent() {
  try {
    const builtAt = statSync(BUNDLE).mtimeMs
    const { inputs } = JSON.parse(readFileSync(MANIFEST, 'utf8'))
    if (!Array.isArray(inputs) || inputs.length === 0) return false
    return inputs.every((input) => statSync(new URL(input, ROOT)).mtimeMs <= builtAt)
  } catch {
    // No bundle, no manifest, or a source that is gone: run the sources.
    return false
  }
}

async function loadFromSources() {
  const { register } = await import('tsx/esm/api')
  register()
  return import('../src/cli/main.ts')
}

async function loadBundle() {
  // Node 22.1 and later can keep V8's compiled code of the bundle between starts (in the
  // system's temp folder), sparing a compile of it at each start; Node 20 has no such cache.
  module.enableCompileCache?.()
  return import(BUNDLE.href)
}

const { main } = bundleIsCurrent() ? await loadBundle() : await loadFromSources()
process.exitCode = await main(process.argv.slice(2))
