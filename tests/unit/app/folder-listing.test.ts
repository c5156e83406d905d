import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { absoluteFolder, expandHome, listFolders } from '../../../src/app/folder-listing'

let home: string

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'folder-listing-'))
  for (const folder of ['projects/alpha', 'projects/alps', 'projects/beta', 'notes', '.hidden'])
    mkdirSync(join(home, folder), { recursive: true })
  writeFileSync(join(home, 'projects', 'readme.txt'), 'not a folder')
  symlinkSync(join(home, 'notes'), join(home, 'projects', 'alnotes'))
  symlinkSync(join(home, 'missing'), join(home, 'projects', 'aldangling'))
})

afterEach(() => rmSync(home, { recursive: true, force: true }))

describe('the folder browser listing', () => {
  it('expands ~ to the home folder only', () => {
    expect(expandHome('~', '/h')).toBe('/h')
    expect(expandHome('~/a/b', '/h')).toBe('/h/a/b')
    expect(expandHome('~other/a', '/h')).toBe('~other/a')
    expect(expandHome('/x/~/y', '/h')).toBe('/x/~/y')
  })

  it('refuses a relative path with words the person can act on', () => {
    expect(() => absoluteFolder('src/app', '/h')).toThrow(/relative path.*whole path from \//)
    expect(() => absoluteFolder('~other', '/h')).toThrow(/relative path/)
    expect(absoluteFolder('  /a/b/../c ', '/h')).toBe('/a/c')
  })

  it('lists a whole folder when the path ends in a separator, subfolders only, hidden left out', async () => {
    const listing = await listFolders('~/', home)
    expect(listing.folder).toBe(home)
    expect(listing.entries.map((entry) => entry.name)).toEqual(['notes', 'projects'])
    expect(listing.problem).toBeNull()
  })

  it('completes the last part: names that start with it, links that lead to folders', async () => {
    const listing = await listFolders('~/projects/al', home)
    expect(listing.folder).toBe(join(home, 'projects'))
    expect(listing.prefix).toBe('al')
    expect(listing.entries).toEqual([
      { name: 'alnotes', path: join(home, 'projects', 'alnotes') },
      { name: 'alpha', path: join(home, 'projects', 'alpha') },
      { name: 'alps', path: join(home, 'projects', 'alps') },
    ])
    expect(listing.parent).toBe(home)
  })

  it('shows hidden folders when the typed part starts with a dot', async () => {
    const listing = await listFolders(`${home}/.h`, home)
    expect(listing.entries.map((entry) => entry.name)).toEqual(['.hidden'])
  })

  it('says why a folder cannot be listed instead of failing', async () => {
    const missing = await listFolders(`${home}/nope/`, home)
    expect(missing.entries).toEqual([])
    expect(missing.problem).toBe(`${join(home, 'nope')} does not exist.`)
    const file = await listFolders(`${home}/projects/readme.txt/`, home)
    expect(file.problem).toMatch(/is a file, not a folder\.$/)
  })

  it('reaches the root without a parent', async () => {
    const root = await listFolders('/', home)
    expect(root.folder).toBe('/')
    expect(root.parent).toBeNull()
  })
})
