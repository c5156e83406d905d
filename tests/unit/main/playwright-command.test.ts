import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { REPO_ROOT } from '../../helpers/processes'

interface PlaywrightCommandModule {
  playwrightCommand(options: { electronPackageDirectory: string; pathVariable: string }): {
    command: string
    args: string[]
  }
}

const { playwrightCommand } = (await import(
  pathToFileURL(join(REPO_ROOT, 'scripts', 'playwright-command.mjs')).href
)) as PlaywrightCommandModule

/** A folder with an electron package (installed or not) and a PATH (with xvfb-run or not). */
function machine(options: { electronInstalled: boolean; xvfbRun: boolean }) {
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-playwright-command-'))
  onTestFinished(() => rmSync(root, { recursive: true, force: true }))
  const electron = join(root, 'electron')
  mkdirSync(electron)
  if (options.electronInstalled) writeFileSync(join(electron, 'path.txt'), 'electron')
  const bin = join(root, 'bin')
  mkdirSync(bin)
  const xvfbRun = join(bin, 'xvfb-run')
  if (options.xvfbRun) {
    writeFileSync(xvfbRun, '#!/bin/sh\n')
    chmodSync(xvfbRun, 0o755)
  }
  const emptyDirectory = join(root, 'empty')
  mkdirSync(emptyDirectory)
  return {
    xvfbRun,
    options: {
      electronPackageDirectory: electron,
      pathVariable: [emptyDirectory, bin].join(delimiter),
    },
  }
}

describe('how npm test starts Playwright (scripts/playwright-command.mjs)', () => {
  it('under xvfb-run -a when the Electron binary is installed and xvfb-run exists', () => {
    const { options, xvfbRun } = machine({ electronInstalled: true, xvfbRun: true })
    expect(playwrightCommand(options)).toEqual({
      command: xvfbRun,
      args: ['-a', 'npx', 'playwright', 'test'],
    })
  })

  it('plainly when the Electron binary is not installed (the spec skips itself)', () => {
    const { options } = machine({ electronInstalled: false, xvfbRun: true })
    expect(playwrightCommand(options)).toEqual({ command: 'npx', args: ['playwright', 'test'] })
  })

  it('plainly when there is no xvfb-run (the spec then says it needs a display)', () => {
    const { options } = machine({ electronInstalled: true, xvfbRun: false })
    expect(playwrightCommand(options)).toEqual({ command: 'npx', args: ['playwright', 'test'] })
  })

  it('ignores an xvfb-run that is not executable', () => {
    const { options, xvfbRun } = machine({ electronInstalled: true, xvfbRun: true })
    chmodSync(xvfbRun, 0o644)
    expect(playwrightCommand(options)).toEqual({ command: 'npx', args: ['playwright', 'test'] })
  })
})
