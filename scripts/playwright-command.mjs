// How `npm test` starts Playwright. The Electron spec opens a real window, so where the
// Electron binary is installed it needs a display: on a machine without one (CI), the run goes
// under `xvfb-run -a` (a private X server on a free display number). Where the binary is
// absent the spec skips itself, and no X server is needed.
import { accessSync, constants, existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

/** The path of an executable found on PATH, or undefined. */
export function findOnPath(name, pathVariable = process.env.PATH ?? '') {
  for (const directory of pathVariable.split(delimiter).filter(Boolean)) {
    const candidate = join(directory, name)
    try {
      accessSync(candidate, constants.X_OK)
      return candidate
    } catch {
      // not in this folder
    }
  }
  return undefined
}

/**
 * The command and arguments for the Playwright run: under xvfb-run when Electron's binary is
 * installed (electron-vite's marker, node_modules/electron/path.txt, exists) and xvfb-run is
 * available; plain otherwise.
 */
export function playwrightCommand({
  electronPackageDirectory = 'node_modules/electron',
  pathVariable = process.env.PATH ?? '',
} = {}) {
  const playwright = ['npx', 'playwright', 'test']
  const electronInstalled = existsSync(join(electronPackageDirectory, 'path.txt'))
  const xvfbRun = electronInstalled ? findOnPath('xvfb-run', pathVariable) : undefined
  const command = xvfbRun === undefined ? playwright : [xvfbRun, '-a', ...playwright]
  return { command: command[0], args: command.slice(1) }
}
