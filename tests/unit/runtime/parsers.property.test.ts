import { writeFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseControlLine } from '../../../src/shared/control'
import { TeamError } from '../../../src/shared/errors'
import { messageToLine, parseMessageLine } from '../../../src/shared/messages'
import { Roster } from '../../../src/runtime/roster/roster'
import { tempWorkspace } from '../../helpers/workspace'

/**
 * No input makes a parser of outside text throw: the mailbox line parser and the control channel
 * answer a typed verdict, the roster parser a TeamError 'roster-invalid'; and what they accept
 * can be written back (JSON.stringify of it never overflows).
 */

/** JSON text nested `depth` deep in arrays or objects, around any JSON value. */
const deepJson = fc
  .tuple(fc.integer({ min: 1, max: 20_000 }), fc.boolean(), fc.json({ maxDepth: 2 }))
  .map(([depth, arrays, inner]) =>
    arrays
      ? `${'['.repeat(depth)}${inner}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}${inner}${'}'.repeat(depth)}`,
  )

/** A mailbox-line-shaped object with any extra fields (some of them deep). */
const messageLike = fc
  .record({
    type: fc.oneof(fc.constant('message'), fc.string()),
    from: fc.oneof(fc.constant('lead'), fc.string()),
    content: fc.oneof(fc.string({ unit: 'grapheme' }), fc.anything()),
    timestamp: fc.oneof(fc.double(), fc.constant(1e300), fc.anything()),
    id: fc.option(fc.oneof(fc.string(), fc.constant('p1-0'))),
  })
  .chain((core) =>
    fc.tuple(fc.dictionary(fc.string(), fc.jsonValue()), deepJson).map(([extra, deep]) => {
      const text = JSON.stringify({ ...extra, ...core })
      return text.length > 1 ? `${text.slice(0, -1)},"deep":${deep}}` : text
    }),
  )

const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.json(),
  deepJson,
  messageLike,
  fc.anything().map((value) => {
    try {
      return JSON.stringify(value) ?? 'undefined'
    } catch {
      return String(value)
    }
  }),
)

const RUNS = { numRuns: 400 }

describe('parsers of outside text never throw', () => {
  it('the mailbox line parser: a verdict, and an accepted message can be written again', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const verdict = parseMessageLine(text, 'alice', 'p1-0')
        if (!verdict.ok) {
          expect(typeof verdict.reason).toBe('string')
          return
        }
        expect(() => messageToLine(verdict.message)).not.toThrow()
      }),
      RUNS,
    )
  })

  it('the control channel: a command or a reason', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const verdict = parseControlLine(text)
        if (verdict.ok) expect(['stop', 'resume', 'budget']).toContain(verdict.command.command)
        else expect(verdict.reason.length).toBeGreaterThan(0)
      }),
      RUNS,
    )
  })

  it('the roster: a roster that can be written again, or a roster-invalid TeamError', () => {
    const { paths } = tempWorkspace()
    Roster.open(paths)
    const rosterLike = fc
      .tuple(
        fc.dictionary(fc.string(), fc.jsonValue()),
        deepJson,
        fc.constantFrom('alice', 'constructor', 'lead', '__proto__'),
      )
      .map(([extra, deep, name]) =>
        JSON.stringify({
          team_name: 't',
          ...extra,
          members: [{ name, role: 'r', status: 'idle' }],
        }).replace(/}$/, `,"deep":${deep}}`),
      )
    fc.assert(
      fc.property(fc.oneof(anyText, rosterLike), (text) => {
        writeFileSync(paths.config, text)
        let file
        try {
          file = Roster.read(paths)
        } catch (error) {
          expect(error).toBeInstanceOf(TeamError)
          expect((error as TeamError).code).toBe('roster-invalid')
          return
        }
        expect(() => JSON.stringify(file)).not.toThrow()
      }),
      { numRuns: 200 },
    )
  })
})
