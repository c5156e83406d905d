import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { NeedsYouStore, needsYouPath, readNeedsYou } from '../../../../src/runtime/needs-you/store'
import { TeamPaths } from '../../../../src/runtime/team/paths'
import { tempWorkspace } from '../../../helpers/workspace'

/** A queue file written before rules could name an MCP tool (and before some entry fields). */
const BEFORE_MCP_RULES = resolve(
  import.meta.dirname,
  '../../../fixtures/needs-you/v1-bash-write-rules.json',
)

function withFile(source: string): TeamPaths {
  const paths = new TeamPaths(tempWorkspace().dir)
  mkdirSync(paths.root, { recursive: true })
  copyFileSync(source, needsYouPath(paths))
  return paths
}

describe('.team/needs-you.json across versions', () => {
  it('reads a file from before MCP rules, and keeps its rules when an MCP rule is added', () => {
    const paths = withFile(BEFORE_MCP_RULES)
    const file = readNeedsYou(needsYouPath(paths))
    expect(file.entries.map((entry) => [entry.id, entry.status, entry.pattern])).toEqual([
      ['ny-1', 'approved', 'npm test'],
      ['ny-2', 'pending', 'src/**'],
      ['ny-3', 'answered', null],
    ])
    expect(file.rules.map((rule) => `${rule.tool} ${rule.pattern}`)).toEqual([
      'bash npm test',
      'write docs/**',
    ])

    const store = NeedsYouStore.open(paths)
    store.addRule({ agent: 'alice', tool: 'mcp', pattern: 'mcp__notes__mark', created_at: 1 })
    const again = readNeedsYou(needsYouPath(paths))
    expect(again.rules.map((rule) => `${rule.tool} ${rule.pattern}`)).toEqual([
      'bash npm test',
      'write docs/**',
      'mcp mcp__notes__mark',
    ])
    expect(again.entries).toEqual(file.entries)
  })

  it('refuses a rule for a tool it does not know, never widening by guess', () => {
    const paths = withFile(BEFORE_MCP_RULES)
    const file = JSON.parse(readFileSync(needsYouPath(paths), 'utf8')) as { rules: unknown[] }
    file.rules.push({ agent: 'alice', tool: 'anything', pattern: '*', created_at: 1 })
    writeFileSync(needsYouPath(paths), JSON.stringify(file))
    expect(() => readNeedsYou(needsYouPath(paths))).toThrow(/needs-you\.json is damaged/)
  })
})
