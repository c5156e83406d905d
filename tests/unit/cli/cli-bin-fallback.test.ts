import { spawnSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { BIN, REPO_ROOT } from '../../helpers/processes'

/**
 * bin/agent-teams.mjs where tsx (a development dependency) is or is not installed: a copy of
 * the script in a folder laid out like the project, with a node_modules that has tsx or not,
 * and stand-ins for the bundle and the sources that each say which one ran.
 */
interface Layout {
  readonly bundle: 'current' | 'stale' | 'none'
  readonly sources: boolean
  readonly tsx: boolean
}

function checkout(layout: Layout): string {
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-bin-fallback-'))
  onTestFinished(() => rmSync(root, { recursive: true, force: true }))
  mkdirSync(join(root, 'bin'))
  copyFileSync(BIN, join(root, 'bin', 'agent-teams.mjs'))
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n')
  mkdirSync(join(root, 'node_modules'))
  if (layout.tsx) {
    symlinkSync(join(REPO_ROOT, 'node_modules', 'tsx'), join(root, 'node_modules', 'tsx'), 'dir')
  }
  const says = (what: string) =>
    `export async function main() { process.stdout.write('${what}'); return 0 }\n`
  const sourceTime = 1_700_000_000
  if (layout.sources) {
    mkdirSync(join(root, 'src', 'cli'), { recursive: true })
    writeFileSync(join(root, 'src', 'cli', 'main.ts'), says('sources'))
    utimesSync(join(root, 'src', 'cli', 'main.ts'), sourceTime, sourceTime)
  }
  if (layout.bundle !== 'none') {
    mkdirSync(join(root, 'out', 'cli'), { recursive: true })
    writeFileSync(join(root, 'out', 'cli', 'main.mjs'), says('bundle'))
    writeFileSync(
      join(root, 'out', 'cli', 'manifest.json'),
      JSON.stringify({ bundle: 'main.mjs', inputs: ['src/cli/main.ts'] }),
    )
    const builtAt = layout.bundle === 'current' ? sourceTime + 60 : sourceTime - 60
    utimesSync(join(root, 'out', 'cli', 'main.mjs'), builtAt, builtAt)
  }
  return root
}

function run(root: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [join(root, 'bin', 'agent-teams.mjs'), '--help'], {
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('bin/agent-teams.mjs with and without tsx', () => {
  it('runs a current bundle without tsx', () => {
    expect(run(checkout({ bundle: 'current', sources: true, tsx: false }))).toEqual({
      code: 0,
      stdout: 'bundle',
      stderr: '',
    })
  })

  it('runs the sources through tsx when the bundle is older than them and tsx is there', () => {
    expect(run(checkout({ bundle: 'stale', sources: true, tsx: true }))).toEqual({
      code: 0,
      stdout: 'sources',
      stderr: '',
    })
  })

  it('runs an older bundle, saying so, when tsx is not installed', () => {
    const result = run(checkout({ bundle: 'stale', sources: true, tsx: false }))
    expect(result.code).toBe(0)
    expect(result.stdout).toBe('bundle')
    expect(result.stderr).toContain('older than the sources')
    expect(result.stderr).toContain('npm run build:cli')
  })

  it('runs a bundle shipped without its sources, quietly', () => {
    expect(run(checkout({ bundle: 'stale', sources: false, tsx: false }))).toEqual({
      code: 0,
      stdout: 'bundle',
      stderr: '',
    })
  })

  it('says to run npm run build:cli, and exits 1, with neither a bundle nor tsx', () => {
    const result = run(checkout({ bundle: 'none', sources: true, tsx: false }))
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^agent-teams: the CLI is not built .*Run `npm run build:cli`/)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })
})
