import { appendFileSync, existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseControlLine } from '../../../src/shared/control'
import { MAX_JSON_DEPTH } from '../../../src/shared/json-limits'
import { parseMessageLine } from '../../../src/shared/messages'
import { formatSecondsUtc } from '../../../src/shared/time'
import { Budgets, NO_BUDGET } from '../../../src/runtime/budgets/budgets'
import { ControlChannel } from '../../../src/runtime/team/control-channel'
import { DeliveredIdsLog, readIds } from '../../../src/runtime/mailbox/delivered-ids'
import { Team } from '../../../src/runtime/team/team'
import { cli, jsonLines } from '../../helpers/cli'
import { appendRaw, s09Line, tempTeam, tempWorkspace } from '../../helpers/workspace'
import { waitFor } from '../../helpers/wait'

/** A valid message line whose extra field nests `depth` arrays deep. */
function deepLine(depth: number, id = 'deep-1'): string {
  return `{"id":"${id}","type":"message","from":"lead","content":"x","timestamp":1,"deep":${'['.repeat(depth)}${']'.repeat(depth)}}\n`
}

const good = (id: string, content = 'ok') =>
  `${JSON.stringify({ id, type: 'message', from: 'lead', content, timestamp: 1700000000 })}\n`

describe('deep and large extra fields', () => {
  it('a line whose extra nests 6,000 deep is rejected with its reason; the next is delivered', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', deepLine(6000))
    appendRaw(team.paths, 'alice', good('after'))
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(batch.deliveries.map((delivery) => delivery.message.id)).toEqual(['after'])
    expect(batch.rejections).toHaveLength(1)
    expect(batch.rejections[0]?.reason).toBe(
      `the extra fields are nested more than ${MAX_JSON_DEPTH} levels deep`,
    )
    consumer.commit(batch)
    expect(readFileSync(team.paths.rejected('alice'), 'utf8')).toContain('levels deep')
  })

  it('keeps extras up to the limit and refuses too many values', () => {
    const atLimit = deepLine(MAX_JSON_DEPTH - 1).trimEnd()
    expect(parseMessageLine(atLimit, 'alice', 'p1-0').ok).toBe(true)
    const tooDeep = deepLine(MAX_JSON_DEPTH).trimEnd()
    expect(parseMessageLine(tooDeep, 'alice', 'p1-0')).toMatchObject({ ok: false })
    const wide = JSON.stringify({
      type: 'message',
      from: 'lead',
      content: '',
      timestamp: 1,
      many: new Array(20_000).fill(0),
    })
    expect(parseMessageLine(wide, 'alice', 'p1-0')).toEqual({
      ok: false,
      reason: 'the extra fields hold more than 10000 values',
    })
  })

  it('a send with such an extra is refused, with a reason the sender can act on', () => {
    const team = tempTeam()
    let nested: unknown = 1
    for (let depth = 0; depth < 100; depth++) nested = [nested]
    expect(() =>
      team.mailbox.send({ from: 'lead', to: 'alice', content: 'x', extra: { nested } }),
    ).toThrow(/nested more than 32 levels/)
  })

  it('drain and inbox --json go on past such a line (they exited 70 before)', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', deepLine(6000))
    appendRaw(team.paths, 'alice', good('after'))
    const peek = await cli(['inbox', 'alice', '--json', '--all', '--workspace', team.dir])
    expect(peek.code).toBe(0)
    expect(jsonLines(peek).map((line) => line.state)).toEqual(['rejected', 'pending'])
    const drained = await cli(['drain', 'alice', '--workspace', team.dir])
    expect(drained.code).toBe(0)
    expect(jsonLines(drained).map((line) => line.id)).toEqual(['after'])
    expect(drained.stderr).toContain('levels deep')
  })
})

describe('ids: position ids and sender ids never meet', () => {
  it('a sender id of the form p<segment>-<offset> is refused, and the id-less line at that place is delivered', async () => {
    const team = tempTeam()
    const forged = good('p1-PLACE')
    // The forged id names the offset where the next (id-less) line will start.
    const line = forged.replace('PLACE', String(Buffer.byteLength(forged) + 1))
    appendRaw(team.paths, 'alice', line)
    appendRaw(team.paths, 'alice', s09Line('tutorial'))
    const consumer = team.consumer('alice')
    const batch = await consumer.poll()
    expect(batch.deliveries.map((delivery) => delivery.message.content)).toEqual(['tutorial'])
    expect(batch.deliveries[0]?.message.id).toBe(`p1-${Buffer.byteLength(line)}`)
    expect(batch.rejections[0]?.reason).toMatch(/kept for lines without an id/)
  })

  it('drain refuses an id it delivered in an earlier run', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', good('m-same', 'first'))
    const first = await cli(['drain', 'alice', '--workspace', team.dir])
    expect(jsonLines(first).map((line) => line.content)).toEqual(['first'])
    appendRaw(team.paths, 'alice', good('m-same', 'again'))
    appendRaw(team.paths, 'alice', good('m-other', 'new'))
    const second = await cli(['drain', 'alice', '--workspace', team.dir])
    expect(second.code).toBe(0)
    expect(jsonLines(second).map((line) => line.content)).toEqual(['new'])
    expect(second.stderr).toContain('duplicate of message m-same')
  })

  it('the ids drain kept also refuse a repeat delivered to a consumer of a later run', async () => {
    const team = tempTeam()
    appendRaw(team.paths, 'alice', good('m-kept'))
    await cli(['drain', 'alice', '--workspace', team.dir])
    appendRaw(team.paths, 'alice', good('m-kept'))
    const batch = await team.consumer('alice').poll()
    expect(batch.deliveries).toHaveLength(0)
    expect(batch.rejections[0]?.reason).toMatch(/duplicate/)
  })
})

describe("drain's delivered ids", () => {
  it('keep ids with any character apart, skip damaged lines, and compact at twice the window', () => {
    const { dir } = tempWorkspace()
    const path = `${dir}/delivered-ids.txt`
    const log = DeliveredIdsLog.open(path, 3)
    log.append(['a\nb', 'c'])
    appendFileSync(path, 'not json\n42\n')
    log.append(['d', 'e', 'f', 'g'])
    expect(readIds(path)).toEqual(['a\nb', 'c', 'd', 'e', 'f', 'g'])
    expect(DeliveredIdsLog.open(path, 3).ids).toEqual(['e', 'f', 'g'])
    expect(readIds(path)).toEqual(['e', 'f', 'g'])
  })
})

describe('control.jsonl', () => {
  const hostile = [
    'null',
    '[1,2]',
    '"x"',
    '42',
    'true',
    '{}',
    '{"command":"stop"}',
    '{"command":"stop","name":"../x"}',
    '{"command":"budget","name":"alice","tokens":-1,"rounds":null}',
    '{"command":"budget","name":"alice","tokens":1e300,"rounds":null}',
    `${'['.repeat(5000)}${']'.repeat(5000)}`,
    '{"command":"stop","name":"alice"',
    '\u0000\u0001',
    '{"__proto__":{"command":"stop"},"name":"alice"}',
  ]

  it.each(hostile.map((line, index) => [index, line]))(
    'refuses hostile line #%i as data, with a reason',
    (_index, line) => {
      const verdict = parseControlLine(line)
      expect(verdict.ok).toBe(false)
      if (!verdict.ok) expect(verdict.reason.length).toBeGreaterThan(0)
    },
  )

  it('a running team refuses hostile lines with events and a log, and still runs the valid ones', async () => {
    const { dir, paths } = tempWorkspace()
    const team = await Team.open({ workspace: dir })
    const events: unknown[] = []
    team.subscribe((event) => events.push(event))
    const commands: unknown[] = []
    team.onControl((command) => commands.push(command))
    appendFileSync(
      paths.control,
      `${hostile.join('\n')}\n{"v":1,"command":"resume","name":"alice","at":1}\n`,
    )
    // Every line judged: the valid one applied, and the log holds a refusal for each other one.
    const logged = (): number =>
      existsSync(`${paths.root}/control-rejected.jsonl`)
        ? readFileSync(`${paths.root}/control-rejected.jsonl`, 'utf8').trim().split('\n').length
        : 0
    await waitFor(
      () => commands.length > 0 && logged() >= hostile.length,
      () => `the lines judged (${commands.length} applied, ${logged()} refusals logged)`,
      { timeout: 5000 },
    )
    await team.close()
    expect(commands).toEqual([{ command: 'resume', name: 'alice' }])
    const refusals = events.filter(
      (event) => (event as { code?: string }).code === 'invalid-control',
    )
    expect(refusals).toHaveLength(hostile.length)
    expect(logged()).toBe(hostile.length)
  })
})

describe('the control channel reader', () => {
  it('skips a line over the limit to its newline, waits for a torn line, and never reads it all', () => {
    const { paths } = tempWorkspace()
    const rejected = `${paths.root}/control-rejected.jsonl`
    appendRaw(paths, 'alice', '') // makes .team/
    const channel = new ControlChannel(paths.control, rejected, 0)
    appendFileSync(paths.control, 'x'.repeat(300 * 1024))
    expect(channel.read()).toEqual({ commands: [], rejections: [] })
    appendFileSync(
      paths.control,
      `${'y'.repeat(300 * 1024)}\n{"command":"stop","name":"alice"}\n{"command":"resu`,
    )
    const first = channel.read()
    expect(first.rejections).toEqual([{ offset: 0, reason: 'line over the limit of 65536 bytes' }])
    expect(first.commands).toEqual([{ command: 'stop', name: 'alice' }])
    appendFileSync(paths.control, 'me","name":"bob"}\n')
    expect(channel.read()).toEqual({
      commands: [{ command: 'resume', name: 'bob' }],
      rejections: [],
    })
    expect(readFileSync(rejected, 'utf8').trim().split('\n')).toHaveLength(1)
  })
})

describe('out-of-range numbers are data', () => {
  it('formats a timestamp no date has as the number', () => {
    expect(formatSecondsUtc(1e300)).toBe('(timestamp 1e+300)')
    expect(formatSecondsUtc(-1e300)).toBe('(timestamp -1e+300)')
    expect(formatSecondsUtc(1700000000)).toBe('2023-11-14 22:13:20Z')
  })

  it('agent-teams inbox shows a message with timestamp 1e300 (it exited 70)', async () => {
    const team = tempTeam()
    appendRaw(
      team.paths,
      'alice',
      '{"type":"message","from":"lead","content":"far","timestamp":1e300}\n',
    )
    const listed = await cli(['inbox', 'alice', '--workspace', team.dir])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain('(timestamp 1e+300)')
  })
})

describe('names that are Object.prototype keys', () => {
  it('a teammate named constructor has its own budget or none, never Object', () => {
    const team = tempTeam(['constructor', 'alice'])
    const budgets = new Budgets(team.roster, { agent: NO_BUDGET, team: NO_BUDGET })
    expect(budgets.forAgent('constructor')).toEqual(NO_BUDGET)
    budgets.set('alice', { tokens: 10, rounds: null, usd: null }, (change) =>
      team.roster.update(change),
    )
    expect(budgets.forAgent('constructor')).toEqual(NO_BUDGET)
    budgets.set('constructor', { tokens: 5, rounds: 2, usd: null }, (change) =>
      team.roster.update(change),
    )
    expect(budgets.forAgent('constructor')).toEqual({ tokens: 5, rounds: 2, usd: null })
  })
})
