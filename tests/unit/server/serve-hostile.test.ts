import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import { AppService } from '../../../src/app/app-service'
import { plainFileSecretStore } from '../../../src/runtime/secrets/secrets'
import type { TeamSnapshot } from '../../../src/shared/contract'
import { createServeCommand } from '../../../src/cli/serve-command'
import { makeHostileEntry, REFUSAL } from '../../helpers/hostile-entries'
import { commandContext } from '../../helpers/streams'
import { waitFor } from '../../helpers/wait'
import { tempTeam } from '../../helpers/workspace'

function setUp(members: readonly string[] = ['alice']) {
  const team = tempTeam(members)
  const root = mkdtempSync(join(tmpdir(), 'agent-teams-serve-hostile-'))
  onTestFinished(() => rmSync(root, { recursive: true, force: true }))
  const configHome = join(root, 'config')
  const staticDirectory = join(root, 'static')
  mkdirSync(configHome)
  mkdirSync(staticDirectory)
  writeFileSync(join(staticDirectory, 'index.html'), '<!doctype html><title>ok</title>')
  const { value: context, stdout } = commandContext(team.dir)
  let listened = false
  const serve = createServeCommand({
    env: { XDG_CONFIG_HOME: configHome },
    staticDirectory,
    untilStopped: () => Promise.resolve(),
    onListening: () => {
      listened = true
    },
  })
  return { team, configHome, context, stdout, run: () => serve(context), listened: () => listened }
}

/** Fails the test instead of waiting forever on a serve that hangs. */
function within<T>(promise: Promise<T>, milliseconds = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('serve hung')), milliseconds)
    }),
  ]).finally(() => clearTimeout(timer))
}

describe('serve on a workspace with hostile files', () => {
  for (const kind of ['folder', 'fifo'] as const)
    it(`config.json as a ${kind}: serve starts and shows the roster problem`, async () => {
      const setup = setUp()
      await makeHostileEntry(kind, setup.team.paths.config)
      expect(await within(setup.run())).toBe(0)
      expect(setup.listened()).toBe(true)
      // What the UI is shown: the roster problem, naming the file and what it is.
      const service = await AppService.create({
        mode: 'browser',
        version: '0.0.0',
        configDirectory: join(setup.configHome, 'agent-teams'),
        secrets: plainFileSecretStore(join(setup.configHome, 'agent-teams', 'settings.json')),
        env: {},
      })
      onTestFinished(() => service.close())
      const snapshot = (await within(
        service.execute('openWorkspace', { path: setup.team.dir }),
      )) as TeamSnapshot
      expect(snapshot.rosterProblem?.message).toMatch(REFUSAL[kind])
      expect(snapshot.rosterProblem?.file).toBe(setup.team.paths.config)
    })

  it('a damaged cursor: serve exits with the error and releases the workspace lock', async () => {
    const setup = setUp(['alice'])
    mkdirSync(setup.team.paths.mailboxState('alice'), { recursive: true })
    writeFileSync(setup.team.paths.cursor('alice'), '{"v":1,"segment":')
    await expect(within(setup.run())).rejects.toMatchObject({
      code: 'file-invalid',
      message: expect.stringMatching(/The cursor file .*alice.* is damaged/),
    })
    // Nothing is held: no runtime lock, no consumer lock, and a fixed workspace opens again.
    expect(existsSync(join(setup.team.paths.root, 'runtime.lock'))).toBe(false)
    expect(existsSync(setup.team.paths.consumerLock('lead'))).toBe(false)
    rmSync(setup.team.paths.cursor('alice'))
    expect(await within(setup.run())).toBe(0)
  })

  it('a damaged protocols.json: serve exits with the error and releases the lock', async () => {
    const setup = setUp()
    writeFileSync(join(setup.team.paths.root, 'protocols.json'), 'nope')
    await expect(within(setup.run())).rejects.toMatchObject({
      message: expect.stringMatching(/protocols\.json is damaged/),
    })
    expect(existsSync(join(setup.team.paths.root, 'runtime.lock'))).toBe(false)
  })

  it('a lock held on another host: says how to take it over, does not hang', async () => {
    const setup = setUp()
    const lock = join(setup.team.paths.root, 'runtime.lock')
    writeFileSync(
      lock,
      JSON.stringify({
        pid: 4242,
        host: 'far-away-host',
        token: 'ab',
        acquiredAt: 1,
        purpose: 'x',
      }),
    )
    await expect(within(setup.run())).rejects.toMatchObject({
      code: 'workspace-busy',
      message: expect.stringContaining(
        `If nothing runs this team on far-away-host any more, remove ${lock} and try again.`,
      ),
    })
  })
})

describe('serve with an inbox that is a FIFO', () => {
  it('starts, answers snapshots, and the agent shows the refusal as its error', async () => {
    const setup = setUp(['alice'])
    await makeHostileEntry('fifo', setup.team.paths.inbox('alice'))
    expect(await within(setup.run())).toBe(0)
    const service = await AppService.create({
      // The person's own team, whose inbox went bad: trusted, so its agents go on at open.
      trustWorkspace: true,
      mode: 'browser',
      version: '0.0.0',
      configDirectory: join(setup.configHome, 'agent-teams'),
      secrets: plainFileSecretStore(join(setup.configHome, 'agent-teams', 'settings.json')),
      env: {},
    })
    onTestFinished(() => service.close())
    const events: unknown[] = []
    service.onEvent((event) => events.push(event))
    await within(service.execute('openWorkspace', { path: setup.team.dir }))
    await waitFor(() => JSON.stringify(events).includes('named pipe (FIFO)'))
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'agent-error',
        agent: 'alice',
        message: expect.stringMatching(/The inbox "alice" .* is a named pipe \(FIFO\), not a file/),
      }),
    )
    // Snapshots still answer, with alice in error.
    const snapshot = (await within(service.execute('getSnapshot', {}))) as TeamSnapshot
    expect(JSON.stringify(snapshot)).toContain('"alice"')
  })
})
