import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readTimeline } from '../../../../src/runtime/timeline/read-timeline'
import { PROBLEMS_PER_SOURCE } from '../../../../src/runtime/timeline/problem-list'
import { tempWorkspace } from '../../../helpers/workspace'

/** A cloned repository's `.team/` is hostile input: its broken lines must not sink the timeline. */
describe('the timeline over a hostile .team/', () => {
  it('a 300,000-line junk transcript and reactions log: a few problems, then a count', async () => {
    const { paths } = tempWorkspace()
    mkdirSync(join(paths.root, 'transcripts'), { recursive: true })
    writeFileSync(join(paths.root, 'transcripts', 'lead.jsonl'), 'x\n'.repeat(300_000))
    writeFileSync(join(paths.root, 'reactions.jsonl'), '{\n'.repeat(300_000))
    const timeline = await readTimeline(
      {
        paths,
        prices: {},
        worktrees: () => {
          throw new Error('no teammate here has a worktree')
        },
      },
      {},
    )
    expect(timeline.entries).toEqual([])
    const transcript = timeline.problems.filter((problem) => problem.includes('lead.jsonl'))
    expect(transcript).toHaveLength(PROBLEMS_PER_SOURCE + 1)
    expect(transcript.at(-1)).toMatch(/and 299980 more problems/)
    const reactions = timeline.problems.filter((problem) => problem.includes('reactions.jsonl'))
    expect(reactions).toHaveLength(PROBLEMS_PER_SOURCE + 1)
    expect(reactions.at(-1)).toMatch(/reactions\.jsonl: and 299980 more problems \(skipped\)/)
  })
})
