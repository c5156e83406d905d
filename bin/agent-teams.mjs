#!/usr/bin/env node
// The `agent-teams` command. It runs the built CLI, out/cli/main.mjs (written by
// scripts/build-cli.mjs on `npm install`, `npm run build`, `npm run build:cli` and `npm test`).
// In a checkout where a source is newer than that bundle, it runs the TypeScript sources
// through tsx's loader instead, so an edit in src/ is never run stale; tsx is a development
// dependency, so that happens only where it is installed. Without tsx, a bundle (stale, or one
// shipped without its sources) is what runs; without either, it says to build one.
// Compiling the sources costs most of a second at every start; the bundle is spared that.
import { existsSync, readFileSync, statSync } from 'node:fs'
import module from 'node:module'
import { fileURLToPath } from 'node:url'

/**
 * The Node the CLI is built for and tested on (.nvmrc, package.json's engines): the Node inside
 * Electron. An older one fails deep inside the bundle, on a missing export or a syntax error
 * printed as a line of minified code, so it is refused here with what to do instead.
 */
const NODE_MAJOR = 24
const NODE_SCRIPT = new URL('../scripts/node24.sh', import.meta.url)

function nodeIsTooOld() {
  const major = Number(process.versions.node.split('.')[0])
  if (major >= NODE_MAJOR) return false
  const remedy = existsSync(NODE_SCRIPT)
    ? `run \`source ${fileURLToPath(NODE_SCRIPT)}\` (it installs Node ${NODE_MAJOR} beside the project and puts it first on PATH)`
    : `install Node ${NODE_MAJOR} or later (nodejs.org, or nvm install ${NODE_MAJOR}) and put it first on PATH`
  process.stderr.write(
    `agent-teams: needs Node ${NODE_MAJOR} or later, and this is Node ${process.versions.node} (${process.execPath}); ${remedy}, then try again.\n`,
  )
  return true
}

const BUNDLE = new URL('../out/cli/main.mjs', import.meta.url)
const MANIFEST = new URL('../out/cli/manifest.json', import.meta.url)
const ROOT = new URL('../', import.meta.url)
const SOURCES = new URL('../src/cli/main.ts', import.meta.url)

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

/** Whether tsx can be imported from here: installed with the development dependencies. */
function tsxIsInstalled() {
  try {
    import.meta.resolve('tsx/esm/api')
    return true
  } catch {
    return false
  }
}

/** Which CLI to run: 'bundle', 'sources', or undefined when there is none. */
function chooseCli() {
  if (bundleIsCurrent()) return 'bundle'
  const hasSources = existsSync(SOURCES)
  if (hasSources && tsxIsInstalled()) return 'sources'
  if (!existsSync(BUNDLE)) return undefined
  if (hasSources) {
    process.stderr.write(
      'agent-teams: out/cli/main.mjs is older than the sources in src/ and tsx is not ' +
        'installed to run them; running the older build (npm run build:cli rebuilds it).\n',
    )
  }
  return 'bundle'
}

async function run() {
  if (nodeIsTooOld()) return 1
  const choice = chooseCli()
  if (choice === undefined) {
    process.stderr.write(
      'agent-teams: the CLI is not built (there is no out/cli/main.mjs), and tsx, which would ' +
        'run it from the sources, is not installed. Run `npm run build:cli` in the project ' +
        'folder, then try again.\n',
    )
    return 1
  }
  const { main } = choice === 'bundle' ? await loadBundle() : await loadFromSources()
  return main(process.argv.slice(2))
}

process.exitCode = await run()
