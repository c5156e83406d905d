import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import {
  CLAUDE_CODE_SDK,
  locateClaudeCode,
  unpackedPath,
} from '../../../../src/runtime/engines/claude-code/availability'
import { tempWorkspace } from '../../../helpers/workspace'

describe('the path of a file electron-builder unpacked from app.asar', () => {
  const everywhere = (): boolean => true

  it('moves a path inside app.asar into app.asar.unpacked, when the file is there', () => {
    expect(
      unpackedPath('/opt/Agent Teams/resources/app.asar/node_modules/x/claude', everywhere),
    ).toBe('/opt/Agent Teams/resources/app.asar.unpacked/node_modules/x/claude')
    expect(
      unpackedPath('C:\\Agent Teams\\resources\\app.asar\\node_modules\\x\\claude.exe', everywhere),
    ).toBe('C:\\Agent Teams\\resources\\app.asar.unpacked\\node_modules\\x\\claude.exe')
  })

  it('leaves it when the unpacked file is missing, or the path is not in an archive', () => {
    const inArchive = '/opt/Agent Teams/resources/app.asar/node_modules/x/claude'
    expect(unpackedPath(inArchive, () => false)).toBe(inArchive)
    for (const path of [
      '/work/app/node_modules/x/claude',
      '/work/app.asar.unpacked/node_modules/x/claude',
      '/work/my-app.asar/x/claude',
    ])
      expect(unpackedPath(path, everywhere)).toBe(path)
  })
})

describe('locateClaudeCode in a packaged app (a folder laid out as electron-builder lays it out)', () => {
  it('answers the binary under app.asar.unpacked, which the OS can execute', () => {
    const { dir } = tempWorkspace('agent-teams-packaged-')
    // Plain Node reads this app.asar as the folder Electron shows it as.
    const archive = join(dir, 'resources', 'app.asar')
    const unpacked = join(dir, 'resources', 'app.asar.unpacked')
    const binaryPackage = `${CLAUDE_CODE_SDK}-${process.platform}-${process.arch}`
    const binaryName = process.platform === 'win32' ? 'claude.exe' : 'claude'
    for (const root of [archive, unpacked]) {
      const sdk = join(root, 'node_modules', ...CLAUDE_CODE_SDK.split('/'))
      mkdirSync(sdk, { recursive: true })
      writeFileSync(
        join(sdk, 'package.json'),
        JSON.stringify({ name: CLAUDE_CODE_SDK, exports: { '.': './sdk.mjs' } }),
      )
      writeFileSync(join(sdk, 'sdk.mjs'), '')
      const binary = join(root, 'node_modules', ...binaryPackage.split('/'))
      mkdirSync(binary, { recursive: true })
      writeFileSync(join(binary, 'package.json'), JSON.stringify({ name: binaryPackage }))
      writeFileSync(join(binary, binaryName), '')
    }
    const main = pathToFileURL(join(archive, 'out', 'main', 'index.js')).href
    expect(locateClaudeCode(main)).toEqual({
      sdk: join(archive, 'node_modules', ...CLAUDE_CODE_SDK.split('/'), 'sdk.mjs'),
      binary: join(unpacked, 'node_modules', ...binaryPackage.split('/'), binaryName),
    })
  })
})
