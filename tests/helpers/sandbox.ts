import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onTestFinished } from 'vitest'
import { probeSandbox } from '../../src/runtime/tools/bash-sandbox'

/** Why the sandbox tests cannot run here, or null; printed when they skip. */
export function sandboxSkipReason(): string | null {
  const status = probeSandbox()
  return status.available ? null : status.reason
}

/** A folder outside every workspace, removed when the test finishes. */
export function tempFolder(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  onTestFinished(() => {
    // A case that got through may have left a folder without permissions: give them back.
    rmSync(dir, { recursive: true, force: true, maxRetries: 2 })
  })
  return dir
}

/** Files worth destroying: a file, a nested file and a hidden one. */
export function plantVictim(folder: string): void {
  mkdirSync(join(folder, 'sub'), { recursive: true })
  writeFileSync(join(folder, 'file'), 'precious\n')
  writeFileSync(join(folder, 'sub', 'nested'), 'precious too\n')
  writeFileSync(join(folder, '.hidden'), 'hidden\n')
}

/** Every entry under `folder` with its kind, mode and contents: equal means untouched. */
export function snapshotTree(folder: string): Record<string, string> {
  const entries: Record<string, string> = {}
  const walk = (path: string, name: string): void => {
    const stats = statSync(path, { throwIfNoEntry: false })
    if (stats === undefined) {
      entries[name] = 'missing'
      return
    }
    const mode = (stats.mode & 0o7777).toString(8)
    if (stats.isDirectory()) {
      entries[name] = `folder ${mode}`
      for (const child of readdirSync(path).sort()) walk(join(path, child), `${name}/${child}`)
    } else {
      entries[name] = `file ${mode} ${readFileSync(path, 'utf8')}`
    }
  }
  walk(folder, '.')
  return entries
}
