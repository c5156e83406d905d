#!/usr/bin/env node
// Run before `npm start` and `npm run dev` (prestart, predev). Electron 42 and later no longer
// download their binary at install: it comes on the first `require('electron')` or from the
// package's own `install-electron` bin, while electron-vite only reads
// node_modules/electron/path.txt and throws "Electron uninstall" when it is missing. So this
// script runs Electron's own installer when the binary is absent, and where the download fails
// says so in one paragraph, with browser mode as the way to run the same app. It is not a
// postinstall step: an offline `npm ci` must still pass.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Generous for a real download of ~100 MB; a network that refuses fails in well under a second. */
const DEFAULT_INSTALL_TIMEOUT_MS = 15 * 60 * 1000

/**
 * The electron package folder. AGENT_TEAMS_ELECTRON_DIR points at another one (the tests use a
 * copy); otherwise the one Node resolves, found by its package.json so that the package's
 * index.js, which would start a download, is never loaded.
 */
function electronPackageDirectory() {
  const override = process.env.AGENT_TEAMS_ELECTRON_DIR
  if (override) return override
  return dirname(createRequire(import.meta.url).resolve('electron/package.json'))
}

/** The binary electron-vite would start, or undefined when it is not installed. */
export function installedBinary(packageDirectory, env = process.env) {
  if (env.ELECTRON_EXEC_PATH)
    return existsSync(env.ELECTRON_EXEC_PATH) ? env.ELECTRON_EXEC_PATH : undefined
  const pathFile = join(packageDirectory, 'path.txt')
  // electron-vite needs path.txt itself, whatever ELECTRON_OVERRIDE_DIST_PATH says.
  if (!existsSync(pathFile)) return undefined
  const relative = readFileSync(pathFile, 'utf8').trim()
  if (relative === '') return undefined
  const distribution = env.ELECTRON_OVERRIDE_DIST_PATH || join(packageDirectory, 'dist')
  const binary = join(distribution, relative)
  return existsSync(binary) ? binary : undefined
}

/** The installer's last meaningful line: the error @electron/get threw, without its stack. */
function downloadError(output) {
  const lines = output
    .split('\n')
    .map((line) => line.trim())
    .filter(
      (line) => line !== '' && !line.startsWith('at ') && line !== 'Downloading Electron binary...',
    )
  return (
    lines.find((line) => /error|failed|refused|ENOTFOUND|EAI_AGAIN|timed? ?out/i.test(line)) ??
    lines.at(-1)
  )
}

function explainFailure(version, reason) {
  return [
    `The Electron ${version} binary could not be downloaded (${reason}).`,
    'Electron 42 and later fetch it from GitHub on first use, not at npm install, and this',
    'machine could not reach GitHub or the ELECTRON_MIRROR it names (offline, a firewall, or a',
    'proxy Node does not use). Run `npm start` again where the download works, or run the',
    'same app in browser mode: `npm run build && npx agent-teams serve --workspace DIR`, then',
    'open the address it prints.',
  ].join(' ')
}

function installTimeout(env) {
  const value = Number(env.AGENT_TEAMS_ELECTRON_INSTALL_TIMEOUT_MS)
  return Number.isFinite(value) && value > 0 ? value : DEFAULT_INSTALL_TIMEOUT_MS
}

/** Runs Electron's installer when the binary is missing; returns the exit code for the script. */
export function ensureElectron(env = process.env) {
  const packageDirectory = electronPackageDirectory()
  if (installedBinary(packageDirectory, env) !== undefined) return 0
  const { version } = JSON.parse(readFileSync(join(packageDirectory, 'package.json'), 'utf8'))
  console.log(`Installing the Electron ${version} binary (once; Electron's own installer)...`)
  const timeoutMs = installTimeout(env)
  const installer = spawnSync(process.execPath, [join(packageDirectory, 'install.js')], {
    cwd: packageDirectory,
    env,
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  })
  const output = `${installer.stdout ?? ''}\n${installer.stderr ?? ''}`
  let reason
  if (installer.error?.code === 'ETIMEDOUT')
    reason = `no answer within ${Math.round(timeoutMs / 1000)} s`
  else if (installer.error) reason = installer.error.message
  else if (installer.status !== 0)
    reason = downloadError(output) ?? `installer exit code ${installer.status}`
  else if (installedBinary(packageDirectory, env) === undefined)
    reason = 'the installer finished but no binary is in node_modules/electron/dist'
  if (reason === undefined) return 0
  console.error(explainFailure(version, reason))
  return 1
}

const runDirectly =
  process.argv[1] !== undefined && pathToFileURL(resolve(process.argv[1])).href === import.meta.url
if (runDirectly) process.exitCode = ensureElectron()
