import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { BIN, REPO_ROOT } from '../../helpers/processes'

/**
 * bin/agent-teams.mjs started by a Node older than 24 (the machine's own, where it has one):
 * one line saying what to do, and a non-zero exit, rather than a line of the minified bundle
 * and a SyntaxError from deep inside it.
 */

/** The first `node` on PATH (or in the usual places) older than 24, if the machine has one. */
function olderNode(): string | undefined {
  const found = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' }).stdout ?? ''
  const candidates = [...found.split('\n'), '/usr/bin/node', '/usr/local/bin/node']
  for (const candidate of candidates.filter((path) => path !== '')) {
    const version = spawnSync(candidate, ['--version'], { encoding: 'utf8' }).stdout ?? ''
    const major = Number(/^v(\d+)\./.exec(version)?.[1])
    if (Number.isInteger(major) && major < 24) return candidate
  }
  return undefined
}

const node = olderNode()

function run(bin: string): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(node ?? 'node', [bin, '--help'], {
    encoding: 'utf8',
    timeout: 30_000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe.skipIf(node === undefined)(`bin/agent-teams.mjs on an older Node (${node})`, () => {
  it('in the project: says to source scripts/node24.sh, in one line, and exits 1', () => {
    const result = run(BIN)
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^agent-teams: needs Node 24 or later, and this is Node 2?\d\./)
    expect(result.stderr).toContain(`source ${join(REPO_ROOT, 'scripts', 'node24.sh')}`)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('installed without the scripts folder: says to install Node 24, and runs nothing', () => {
    const root = mkdtempSync(join(tmpdir(), 'agent-teams-bin-old-node-'))
    onTestFinished(() => rmSync(root, { recursive: true, force: true }))
    mkdirSync(join(root, 'bin'))
    copyFileSync(BIN, join(root, 'bin', 'agent-teams.mjs'))
    writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n')
    // A bundle that would run on any Node: it must not be reached.
    mkdirSync(join(root, 'out', 'cli'), { recursive: true })
    writeFileSync(
      join(root, 'out', 'cli', 'main.mjs'),
      "export async function main() { process.stdout.write('bundle'); return 0 }\n",
    )
    writeFileSync(join(root, 'out', 'cli', 'manifest.json'), '{"inputs": ["package.json"]}')
    const result = run(join(root, 'bin', 'agent-teams.mjs'))
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toMatch(/^agent-teams: needs Node 24 or later.*install Node 24 or later/)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
  })
})
