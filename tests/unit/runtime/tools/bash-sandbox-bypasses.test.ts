import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBashTool } from '../../../../src/runtime/tools/basic-tools'
import { runBash } from '../../../../src/runtime/tools/bash'
import { refusedCommandReason } from '../../../../src/runtime/tools/bash-guard'
import { defaultBashSandbox } from '../../../../src/runtime/tools/bash-sandbox'
import { BLOCKLIST_BYPASSES } from '../../../helpers/blocklist-bypasses'
import { plantVictim, sandboxSkipReason, snapshotTree, tempFolder } from '../../../helpers/sandbox'
import { tempWorkspace } from '../../../helpers/workspace'

const skipReason = sandboxSkipReason()
if (skipReason !== null) console.info(`[skipped] blocklist bypasses in the sandbox: ${skipReason}`)

afterAll(() => defaultBashSandbox.close())

const quote = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`

/** A victim folder inside a parent of its own, so that `mv victim victim.gone` stays in it. */
function victim(prefix: string): string {
  const folder = join(tempFolder(prefix), 'victim')
  plantVictim(folder)
  return folder
}

describe('the 42 known blocklist bypasses', () => {
  it('are 42, and the blocklist lets every one through', () => {
    expect(BLOCKLIST_BYPASSES).toHaveLength(42)
    expect(new Set(BLOCKLIST_BYPASSES.map((bypass) => bypass.name)).size).toBe(42)
    for (const bypass of BLOCKLIST_BYPASSES)
      expect([bypass.name, refusedCommandReason(bypass.command('/'))]).toEqual([bypass.name, null])
  })
})

describe.skipIf(skipReason !== null)('the sandbox contains the 42 blocklist bypasses', () => {
  it.each(BLOCKLIST_BYPASSES.map((bypass) => [bypass.name, bypass] as const))(
    '%s',
    async (_name, bypass) => {
      // Without the sandbox the command does damage, so that "nothing changed" below means
      // the sandbox held, not that the command was harmless.
      const { dir: plainWorkspace } = tempWorkspace('agent-teams-bypass-plain-')
      const control = victim('agent-teams-bypass-control-')
      const untouched = snapshotTree(control)
      await runBash(`bash -c ${quote(bypass.command(control))}`, { cwd: plainWorkspace })
      expect(snapshotTree(control)).not.toEqual(untouched)

      const { dir: workspace } = tempWorkspace('agent-teams-bypass-')
      const teamFolder = join(workspace, '.team')
      mkdirSync(join(teamFolder, 'inbox'), { recursive: true })
      writeFileSync(join(teamFolder, 'config.json'), '{"team_name":"t","members":[]}\n')
      writeFileSync(join(teamFolder, 'inbox', 'lead.jsonl'), '')
      const outside = victim('agent-teams-bypass-outside-')
      const before = { outside: snapshotTree(outside), team: snapshotTree(teamFolder) }

      const outcome = await createBashTool({ timeoutMs: 30_000 }).run(
        {
          command:
            `bash -c ${quote(bypass.command(outside))}; ` +
            `bash -c ${quote(bypass.command(teamFolder))}; echo ran`,
        },
        { workspace, agent: 'alice', signal: new AbortController().signal },
      )
      expect(outcome.content).toContain('ran')
      expect({ outside: snapshotTree(outside), team: snapshotTree(teamFolder) }).toEqual(before)
    },
    60_000,
  )
})
