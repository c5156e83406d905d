import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it, onTestFinished } from 'vitest'
import { HELP } from '../../../src/cli/main'
import type { Output } from '../../../src/cli/output'
import { BIN, REPO_ROOT } from '../../helpers/processes'

interface BuildScript {
  buildCli(options: { outDirectory: string }): Promise<boolean>
}

function tempDirectory(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => rmSync(directory, { recursive: true, force: true }))
  return directory
}

function capture(): { output: Output; stdout: () => string } {
  let stdout = ''
  const stream = (append: (text: string) => void) =>
    ({
      write: (chunk: string, callback?: () => void) => {
        append(chunk)
        callback?.()
        return true
      },
    }) as unknown as NodeJS.WritableStream
  return {
    output: { stdout: stream((text) => (stdout += text)), stderr: stream(() => {}) } as Output,
    stdout: () => stdout,
  }
}

describe('the built CLI (scripts/build-cli.mjs)', () => {
  it('bundles the CLI into one module that runs, and lists what it was made from', async () => {
    const directory = tempDirectory('agent-teams-cli-build-')
    const script = pathToFileURL(join(REPO_ROOT, 'scripts', 'build-cli.mjs')).href
    const { buildCli } = (await import(script)) as BuildScript
    expect(await buildCli({ outDirectory: directory })).toBe(true)

    const manifest = JSON.parse(readFileSync(join(directory, 'manifest.json'), 'utf8')) as {
      inputs: string[]
    }
    expect(manifest.inputs).toContain('src/cli/main.ts')
    expect(manifest.inputs).toContain('src/cli/serve-command.ts')
    // A dependency is judged by its package.json, not by each of its hundreds of files.
    expect(manifest.inputs).toContain('node_modules/zod/package.json')
    expect(manifest.inputs.filter((input) => input.startsWith('node_modules/zod/'))).toEqual([
      'node_modules/zod/package.json',
    ])

    const bundle = (await import(pathToFileURL(join(directory, 'main.mjs')).href)) as {
      main(argv: readonly string[], output: Output): Promise<number>
    }
    const { output, stdout } = capture()
    expect(await bundle.main(['--help'], output)).toBe(0)
    expect(stdout()).toBe(`${HELP.trimEnd()}\n`)
    // A bound, not a measure: esbuild over the CLI and its dependencies (the sandbox runtime
    // and the MCP SDK among them) takes a while on a busy two-core machine.
  }, 120_000)
})

/**
 * A copy of bin/agent-teams.mjs in a folder laid out like the repository, with a stand-in
 * bundle and stand-in sources that each say which one ran.
 */
function fakeCheckout(): {
  root: string
  run: () => string
  date: (path: string, at: number) => void
} {
  const root = tempDirectory('agent-teams-bin-')
  mkdirSync(join(root, 'bin'))
  mkdirSync(join(root, 'out', 'cli'), { recursive: true })
  mkdirSync(join(root, 'src', 'cli'), { recursive: true })
  copyFileSync(BIN, join(root, 'bin', 'agent-teams.mjs'))
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n')
  // tsx, for the sources, is found through node_modules as in the repository.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir')
  const says = (what: string) =>
    `export async function main() { process.stdout.write('${what}'); return 0 }\n`
  writeFileSync(join(root, 'out', 'cli', 'main.mjs'), says('bundle'))
  writeFileSync(
    join(root, 'src', 'cli', 'main.ts'),
    `${says('sources')}export type Code = number\n`,
  )
  writeFileSync(join(root, 'src', 'cli', 'other.ts'), 'export {}\n')
  writeFileSync(
    join(root, 'out', 'cli', 'manifest.json'),
    JSON.stringify({ bundle: 'main.mjs', inputs: ['src/cli/main.ts', 'src/cli/other.ts'] }),
  )
  const date = (path: string, at: number): void => utimesSync(join(root, path), at, at)
  const source = 1_700_000_000
  date('src/cli/main.ts', source)
  date('src/cli/other.ts', source)
  date('out/cli/main.mjs', source + 60)
  const run = (): string => {
    const result = spawnSync(process.execPath, [join(root, 'bin', 'agent-teams.mjs')], {
      encoding: 'utf8',
    })
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    return result.stdout
  }
  return { root, run, date }
}

describe('bin/agent-teams.mjs chooses between the bundle and the sources', () => {
  it('runs the bundle while no file it was made from is newer', () => {
    const checkout = fakeCheckout()
    expect(checkout.run()).toBe('bundle')
  })

  it('runs the sources once one of them was edited after the build', () => {
    const checkout = fakeCheckout()
    checkout.date('src/cli/other.ts', 1_700_000_000 + 61)
    expect(checkout.run()).toBe('sources')
  })

  it('runs the sources when a file the bundle was made from is gone', () => {
    const checkout = fakeCheckout()
    rmSync(join(checkout.root, 'src', 'cli', 'other.ts'))
    expect(checkout.run()).toBe('sources')
  })

  it('runs the sources when there is no manifest, or no bundle', () => {
    const checkout = fakeCheckout()
    rmSync(join(checkout.root, 'out', 'cli', 'manifest.json'))
    expect(checkout.run()).toBe('sources')
    const other = fakeCheckout()
    rmSync(join(other.root, 'out', 'cli', 'main.mjs'))
    expect(other.run()).toBe('sources')
  })
})
