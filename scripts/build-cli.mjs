#!/usr/bin/env node
// Builds the `agent-teams` command into one ES module, out/cli/main.mjs, so that a start does
// not compile TypeScript (through tsx, that was most of a start's second). Run by
// `npm run build`, by `npm install` (the prepare script) and by the test runner.
//
// Beside it, out/cli/manifest.json lists the files the bundle was made from: our sources and
// the package.json of each dependency bundled. bin/agent-teams.mjs runs the bundle only while
// none of them is newer than it, and the sources through tsx otherwise: an edit in src/ (or an
// updated dependency) is never run stale.
//
// Dependencies are bundled too. Loaded from node_modules, the Anthropic SDK and zod alone are
// some 1,500 ES modules to resolve and compile, which took about as long as the rest of a
// start (0.8 s of CPU for `--help` against 0.3 s bundled).
import { cpSync, mkdirSync, renameSync, utimesSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const OUT = join(ROOT, 'out', 'cli')

/** Writes a file whole or not at all: a CLI starting meanwhile never reads half a bundle. */
/** Writes `path` whole by a rename; dated `datedAt` (before the rename) when given. */
function writeAtomically(path, contents, datedAt) {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, contents)
  if (datedAt !== undefined) utimesSync(temporary, datedAt, datedAt)
  renameSync(temporary, path)
}

/**
 * What the bundle's freshness is judged by: each source of ours, and for the dependencies
 * (hundreds of files each) their package.json, which an install or update rewrites.
 */
function freshnessInputs(metafileInputs) {
  const files = new Set()
  for (const input of metafileInputs) {
    const path = relative(ROOT, resolve(ROOT, input)).split('\\').join('/')
    const dependency = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path)
    files.add(dependency ? `${dependency[1]}/package.json` : path)
  }
  return [...files].sort()
}

/**
 * Builds `<outDirectory>/main.mjs` and its manifest; resolves false, having warned, where
 * esbuild is not installed. Another directory than out/cli is for tests.
 */
export async function buildCli({ outDirectory = OUT } = {}) {
  const bundle = join(outDirectory, 'main.mjs')
  let esbuild
  try {
    esbuild = await import('esbuild')
  } catch {
    // An install without devDependencies: the command runs from the sources through tsx.
    console.warn('build-cli: esbuild is not installed; agent-teams will run from src/ (tsx).')
    return false
  }
  // Sources edited while the build runs must count as newer than the bundle: it is dated to
  // when the build started reading them.
  const startedAt = new Date()
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['src/cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    // Bundled CommonJS (ws) calls require() for built-ins and optional add-ons.
    banner: {
      js: "import { createRequire as createRequireForBundle } from 'node:module'\nconst require = createRequireForBundle(import.meta.url)",
    },
    // A fifth less to parse at each start; names are kept, so stack traces still read (and
    // `node --enable-source-maps` maps them back to src/ through the linked map).
    minifyWhitespace: true,
    minifySyntax: true,
    // jsonc-parser's main is a UMD module whose require() of its own parts esbuild cannot
    // follow (the bundle would look for them beside itself): its ES module build instead.
    alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
    // Claude Code's SDK is an optional dependency that finds its own binary beside itself, so
    // it is loaded from node_modules at run time (only when a Claude Code teammate runs).
    external: ['@anthropic-ai/claude-agent-sdk'],
    // ws's optional native add-ons are no dependencies of ours: skip looking for them.
    define: {
      'process.env.WS_NO_BUFFER_UTIL': '"1"',
      'process.env.WS_NO_UTF_8_VALIDATE': '"1"',
    },
    sourcemap: 'linked',
    outfile: bundle,
    metafile: true,
    write: false,
    logLevel: 'warning',
  })
  mkdirSync(outDirectory, { recursive: true })
  const inputs = freshnessInputs(Object.keys(result.metafile.inputs))
  writeAtomically(
    join(outDirectory, 'manifest.json'),
    `${JSON.stringify({ bundle: 'main.mjs', inputs }, null, 2)}\n`,
  )
  // The map first, then the bundle, already dated: its date is what the command compares.
  for (const file of result.outputFiles)
    if (file.path !== bundle) writeAtomically(file.path, file.contents)
  const built = result.outputFiles.find((file) => file.path === bundle)
  if (built === undefined) throw new Error(`esbuild wrote no ${bundle}`)
  copySandboxHelpers(outDirectory)
  writeAtomically(bundle, built.contents, startedAt)
  return true
}

/**
 * bash's sandbox runtime, bundled, looks for its helpers (the seccomp filter's binary, the JVM
 * proxy agent) in vendor/ beside the bundle: bubblewrap and java run them by path.
 */
function copySandboxHelpers(outDirectory) {
  const vendor = join(ROOT, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor')
  for (const helper of ['seccomp', 'java-proxy-agent'])
    cpSync(join(vendor, helper), join(outDirectory, 'vendor', helper), {
      recursive: true,
      filter: (source) => !source.endsWith('.ts'),
    })
}

/**
 * `--optional` (the prepare script): a failed build must not fail `npm install` halfway
 * through an edit; it warns, and the command runs from the sources until the next build.
 */
async function runFromCommandLine() {
  const optional = process.argv.includes('--optional')
  const started = performance.now()
  try {
    if (await buildCli())
      console.log(
        `build-cli: ${relative(ROOT, join(OUT, 'main.mjs'))} (${Math.round(performance.now() - started)} ms)`,
      )
    // Asked for outright (not by an install), a build that made no bundle is a failure.
    else if (!optional) process.exitCode = 1
  } catch (error) {
    if (!optional) throw error
    console.warn(`build-cli: no bundle (${error.message}); agent-teams will run from src/ (tsx).`)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runFromCommandLine()
