#!/usr/bin/env node
// `npm run package [-- <electron-builder options>]`: builds the app (npm run build) and then
// packages it with electron-builder (electron-builder.yml): AppImage and deb on Linux, dmg on
// macOS, nsis on Windows, or the targets named (`--linux`, `--mac`, `--win`, `--dir`).
// electron-builder downloads Electron's zip for the target platform; where that download is
// impossible (no network), this says so in one paragraph instead of a stack trace.
//
// First, each build's Claude Code binary (the SDK's platform package, which npm installed for
// this machine only) is installed when node_modules lacks it. Where it cannot be had, this
// stops with one paragraph, or packages without it when given --without-claude-code.
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  CLAUDE_CODE_SDK,
  claudeCodeBinaryPackages,
  explainMissingBinary,
  hasBinary,
  installBinaries,
  installedSdkVersion,
} from './claude-code-binary.mjs'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** What a failed download looks like in electron-builder's output (got's and Go's errors). */
const DOWNLOAD_FAILURE =
  /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|getaddrinfo|dial tcp|no such host|RequestError|unable to download|cannot download/i

/** One paragraph saying why packaging failed and what to do, or null for another failure. */
export function explainPackagingFailure(output, electronVersion) {
  if (!DOWNLOAD_FAILURE.test(output)) return null
  return (
    `Packaging needs Electron ${electronVersion}'s prebuilt zip for the target platform, ` +
    'which electron-builder downloads from GitHub into its cache (~/.cache/electron on Linux), ' +
    'and the download failed: this machine cannot reach github.com. Run `npm run package` ' +
    'on a machine with internet access, or point ELECTRON_MIRROR at a mirror you can reach, ' +
    'or put the zip in the cache first. The app itself needs no packaging: `npm start` runs ' +
    'it, and `agent-teams serve` runs the same UI in a browser.'
  )
}

function electronVersion() {
  try {
    return JSON.parse(readFileSync(join(ROOT, 'node_modules', 'electron', 'package.json'), 'utf8'))
      .version
  } catch {
    return '(the installed version)'
  }
}

/** This script's own option: package even where Claude Code's binary cannot be had. */
const WITHOUT_CLAUDE_CODE = '--without-claude-code'

/**
 * Makes sure node_modules holds Claude Code's binary for every build of `args`, installing it
 * when missing. 'included': it is; 'left-out': it cannot be had and the person allowed that;
 * 'stop': it cannot be had (said in one paragraph).
 */
function ensureClaudeCode(args, withoutClaudeCode) {
  const { packages, unsupported } = claudeCodeBinaryPackages(args)
  const version = installedSdkVersion(ROOT)
  let problem = null
  if (unsupported.length > 0) {
    problem = {
      problem: `the SDK publishes no binary for ${unsupported.join(', ')}`,
      remedy: 'package x64 or arm64 builds (--x64, --arm64)',
    }
  } else if (version === null) {
    problem = {
      problem: `${CLAUDE_CODE_SDK}, an optional dependency, is not installed (was npm install run with --omit=optional?)`,
      remedy: 'run npm install first',
    }
  } else {
    const missing = packages.filter((name) => !hasBinary(ROOT, name))
    if (missing.length > 0) {
      const wanted = missing.map((name) => `${name}@${version}`).join(', ')
      console.log(`package: installing Claude Code's binary for this build: ${wanted}`)
      if (
        !installBinaries(ROOT, missing, version) ||
        !missing.every((name) => hasBinary(ROOT, name))
      )
        problem = {
          problem: `node_modules lacks ${wanted}, and npm could not install it (its output is above)`,
          remedy:
            'package on a machine that can reach the npm registry (npm then fetches about 200 MB a build)',
        }
    }
  }
  if (problem === null) return 'included'
  console.error(`\npackage: ${explainMissingBinary(problem, withoutClaudeCode)}`)
  return withoutClaudeCode ? 'left-out' : 'stop'
}

/** Runs electron-builder, showing its output as it comes and keeping it to explain a failure. */
function runElectronBuilder(args, env) {
  return new Promise((resolveRun) => {
    const cli = join(ROOT, 'node_modules', 'electron-builder', 'cli.js')
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: ROOT,
      env,
      stdio: ['inherit', 'pipe', 'pipe'],
    })
    let output = ''
    for (const [stream, target] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ]) {
      stream.on('data', (chunk) => {
        target.write(chunk)
        // The end of the output is where the error is; the start can be long.
        output = (output + chunk.toString()).slice(-200_000)
      })
    }
    child.on('close', (code) => resolveRun({ code: code ?? 1, output }))
    child.on('error', (error) => resolveRun({ code: 1, output: error.message }))
  })
}

async function main() {
  const given = process.argv.slice(2)
  const args = given.filter((arg) => arg !== WITHOUT_CLAUDE_CODE)
  // Before the build: a missing binary is known in seconds, the build takes minutes.
  const claudeCode = ensureClaudeCode(args, args.length < given.length)
  if (claudeCode === 'stop') return 1
  const build = spawnSync('npm', ['run', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  })
  if (build.status !== 0) {
    console.error('package: `npm run build` failed; nothing was packaged.')
    return 1
  }
  // scripts/after-pack.mjs fails a build without the binary, unless it was left out on purpose.
  const env =
    claudeCode === 'left-out'
      ? { ...process.env, AGENT_TEAMS_WITHOUT_CLAUDE_CODE: '1' }
      : process.env
  const { code, output } = await runElectronBuilder(args, env)
  if (code === 0) return 0
  const explanation = explainPackagingFailure(output, electronVersion())
  if (explanation !== null) console.error(`\npackage: ${explanation}`)
  return code
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = await main()
