import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { REPO_ROOT } from '../../helpers/processes'

/**
 * scripts/ensure-electron.mjs (prestart, predev) against a copy of the electron package, so the
 * real node_modules/electron is never changed. The download is Electron's own installer, for
 * real, pointed at a loopback port nobody listens on: it fails at once here and everywhere,
 * and never reaches the internet.
 */

const SCRIPT = join(REPO_ROOT, 'scripts', 'ensure-electron.mjs')
const ELECTRON = join(REPO_ROOT, 'node_modules', 'electron')

function tempDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

/** node_modules/electron copied into a temp node_modules (its dependencies linked beside it). */
function electronCopy(): string {
  const modules = join(tempDirectory('agent-teams-electron-'), 'node_modules')
  const copy = join(modules, 'electron')
  mkdirSync(copy, { recursive: true })
  for (const file of ['package.json', 'install.js', 'index.js', 'checksums.json'])
    copyFileSync(join(ELECTRON, file), join(copy, file))
  for (const dependency of ['@electron', '@electron-internal'])
    symlinkSync(join(REPO_ROOT, 'node_modules', dependency), join(modules, dependency), 'dir')
  return copy
}

/** A port on 127.0.0.1 that refuses connections: one a server held and released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

function ensure(
  packageDirectory: string,
  env: Record<string, string> = {},
): { code: number | null; stdout: string; stderr: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env }
  childEnv.AGENT_TEAMS_ELECTRON_DIR = packageDirectory
  for (const name of ['ELECTRON_EXEC_PATH', 'ELECTRON_OVERRIDE_DIST_PATH', 'ELECTRON_MIRROR'])
    if (!(name in env)) delete childEnv[name]
  const result = spawnSync(process.execPath, [SCRIPT], {
    env: childEnv,
    encoding: 'utf8',
    // The script's own limit on the installer is shorter; this one only keeps the test finite.
    timeout: 30_000,
    killSignal: 'SIGKILL',
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** Replaces the copy's installer with one that records that it ran, then runs `then`. */
function recordingInstaller(packageDirectory: string, then: string): string {
  const marker = join(packageDirectory, 'installer-ran')
  writeFileSync(
    join(packageDirectory, 'install.js'),
    `require('fs').writeFileSync(${JSON.stringify(marker)}, 'yes')\n${then}\n`,
  )
  return marker
}

describe('ensure-electron (prestart, predev)', () => {
  it('does nothing when the binary is installed', () => {
    const copy = electronCopy()
    mkdirSync(join(copy, 'dist'))
    writeFileSync(join(copy, 'path.txt'), 'electron')
    writeFileSync(join(copy, 'dist', 'electron'), '#!/bin/sh\n')
    chmodSync(join(copy, 'dist', 'electron'), 0o755)
    const marker = recordingInstaller(copy, 'process.exit(1)')
    const result = ensure(copy)
    expect(result).toEqual({ code: 0, stdout: '', stderr: '' })
    expect(existsSync(marker)).toBe(false)
  })

  it('runs the installer when path.txt names a binary that is gone', () => {
    const copy = electronCopy()
    writeFileSync(join(copy, 'path.txt'), 'electron')
    const marker = recordingInstaller(copy, 'process.exit(1)')
    expect(ensure(copy).code).toBe(1)
    expect(existsSync(marker)).toBe(true)
  })

  it('succeeds once the installer has put the binary in place', () => {
    const copy = electronCopy()
    const marker = recordingInstaller(
      copy,
      [
        "const fs = require('fs'), path = require('path')",
        "fs.mkdirSync(path.join(__dirname, 'dist'))",
        "fs.writeFileSync(path.join(__dirname, 'dist', 'electron'), '')",
        "fs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron')",
      ].join('\n'),
    )
    const result = ensure(copy)
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(existsSync(marker)).toBe(true)
  })

  it('fails when the installer exits 0 without a binary', () => {
    const copy = electronCopy()
    recordingInstaller(copy, '')
    const result = ensure(copy)
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('no binary is in node_modules/electron/dist')
  })

  it("explains in one paragraph when Electron's own installer cannot download", async () => {
    const copy = electronCopy()
    const port = await closedPort()
    const started = Date.now()
    const result = ensure(copy, {
      ELECTRON_MIRROR: `http://127.0.0.1:${port}/`,
      // An empty cache: a zip downloaded earlier on this machine must not make it succeed.
      electron_config_cache: tempDirectory('agent-teams-electron-cache-'),
      AGENT_TEAMS_ELECTRON_INSTALL_TIMEOUT_MS: '20000',
    })
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(result.code).toBe(1)
    const version = (
      JSON.parse(readFileSync(join(copy, 'package.json'), 'utf8')) as {
        version: string
      }
    ).version
    expect(result.stdout).toContain(`Installing the Electron ${version} binary`)
    const paragraph = result.stderr.trim()
    expect(paragraph.split('\n')).toHaveLength(1)
    expect(paragraph).toMatch(
      new RegExp(`^The Electron ${version} binary could not be downloaded \\(.+\\)\\.`),
    )
    expect(paragraph).toContain('npm run build && npx agent-teams serve --workspace DIR')
    expect(paragraph).not.toMatch(/\n\s+at /)
    expect(existsSync(join(copy, 'path.txt'))).toBe(false)
  })

  it('gives up on an installer that hangs, at its time limit', () => {
    const copy = electronCopy()
    recordingInstaller(copy, 'setInterval(() => {}, 1000)')
    const result = ensure(copy, { AGENT_TEAMS_ELECTRON_INSTALL_TIMEOUT_MS: '500' })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('could not be downloaded (no answer within 1 s)')
  })
})
