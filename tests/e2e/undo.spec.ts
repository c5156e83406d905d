import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type BrowserContext, type Locator, type Page } from '@playwright/test'
import { appDataFolder, workspaceDataFolder } from '../../src/runtime/fs/app-folders'
import {
  dataHome,
  offlineConfigHome,
  openApp,
  openWatchedPage,
  root,
  startServer,
  tearDown,
  type RunningServer,
} from './serve'

/**
 * Undo end to end, in a git workspace on the offline model: a scripted teammate (alice, in her
 * own worktree) runs the commands the person sends her, one turn each. The person undoes her
 * last turn from the transcript (the plan with its diff first; the files on disk come back; the
 * turn shows "Undone"; Redo puts them back), then from Changes with a file the person changed
 * since (kept, unticked), and meets a reset the undo refuses (another branch holds her commit).
 */

const screenshots = join(root, 'test-results/screenshots')
const TEAM_TIMEOUT = 60_000
const TURN_TWO =
  'echo v2 > notes.txt && rm README.md && echo new > added.txt && mkdir -p build && echo log > build/out.log'

let workspace = ''
let configHome = ''
let server: RunningServer | undefined
let context: BrowserContext | undefined
let page: Page
const pageErrors: string[] = []

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
  }).trim()
}

/** Where the server made alice's worktree: its data folder, never the workspace. */
function worktree(): string {
  const data = appDataFolder({ XDG_DATA_HOME: dataHome(configHome) })
  return join(workspaceDataFolder(data, workspace), 'worktrees', 'alice')
}

const inWorktree = (path: string): string => join(worktree(), path)
const read = (path: string): string => readFileSync(inWorktree(path), 'utf8')
const status = (name: string): Locator => page.getByTestId(`status-${name}`)

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `undo-${name}.png`) })
}

const transcriptFile = (): string =>
  readFileSync(join(workspace, '.team/transcripts/alice.jsonl'), 'utf8')

/** How many times alice said `text` in her transcript (the offline model's scripted replies). */
function said(text: string): number {
  return transcriptFile().split(text).length - 1
}

/** Waits until alice said `text` `times` times, then rests. */
async function aliceSaid(text: string, times: number): Promise<void> {
  await expect.poll(() => said(text), { timeout: TEAM_TIMEOUT }).toBe(times)
  await expect(status('alice')).toHaveAttribute('data-status', 'idle', { timeout: TEAM_TIMEOUT })
}

/** Sends alice a command from her conversation and waits until she has run it and rests. */
async function tellAlice(command: string): Promise<void> {
  const before = said('Done.')
  const composer = page.getByLabel('Message alice')
  await composer.fill(`Please run \`${command}\``)
  await composer.press('Enter')
  await aliceSaid('Done.', before + 1)
}

/** Each undo and redo tells alice in her inbox, which wakes her: she notes it and rests. */
const NOTED = 'alice here: noted'

test.describe.configure({ mode: 'serial' })

test.describe('browser mode: undo of a teammate’s turns', () => {
  test.beforeAll(async ({ browser }) => {
    mkdirSync(screenshots, { recursive: true })
    workspace = mkdtempSync(join(tmpdir(), 'agent-teams-e2e-undo-workspace-'))
    git(workspace, 'init', '-q', '-b', 'main')
    git(workspace, 'config', 'user.name', 'Test Person')
    git(workspace, 'config', 'user.email', 'person@example.com')
    git(workspace, 'config', 'commit.gpgsign', 'false')
    writeFileSync(join(workspace, 'README.md'), '# Notes\n')
    writeFileSync(join(workspace, 'notes.txt'), 'v0\n')
    writeFileSync(join(workspace, '.gitignore'), '.team/\nbuild/\n')
    git(workspace, 'add', '-A')
    git(workspace, 'commit', '-q', '-m', 'Start')

    configHome = offlineConfigHome('undo', { demoSpeed: 'instant' })
    server = await startServer({ workspace, configHome })
    page = await openWatchedPage(browser, pageErrors, { width: 1440, height: 900 })
    context = page.context()
  })

  test.afterAll(async () => {
    const code = await tearDown(context, server, [workspace, configHome])
    expect(code, 'the server exits cleanly on SIGTERM').toBe(0)
  })

  test('undo of a turn from the transcript: the plan and its diff, the files back, Undone, Redo', async () => {
    test.setTimeout(3 * TEAM_TIMEOUT)
    await openApp(page, server!.url)
    await page.getByRole('button', { name: 'Spawn teammate' }).click()
    const spawn = page.getByRole('dialog', { name: 'Spawn a teammate' })
    await spawn.getByLabel('Name', { exact: true }).fill('alice')
    await spawn.getByLabel('Role', { exact: true }).fill('coder')
    await spawn.getByLabel('First prompt', { exact: true }).fill('Please run `echo v1 > notes.txt`')
    await spawn.getByRole('button', { name: 'Spawn', exact: true }).click()
    await expect(spawn).toBeHidden()
    await aliceSaid('Done.', 1)
    expect(read('notes.txt')).toBe('v1\n')

    // Turn two edits a file, deletes one, adds one (and an ignored one).
    await page.getByTestId('roster-item-alice').click()
    await tellAlice(TURN_TWO)
    expect(read('notes.txt')).toBe('v2\n')
    expect(existsSync(inWorktree('README.md'))).toBe(false)
    expect(read('added.txt')).toBe('new\n')

    // The turn's first row offers the undo (on hover).
    const transcript = page.getByTestId('transcript')
    const turn = transcript.locator('.undo-frame', { hasText: 'echo v2 > notes.txt' }).first()
    await turn.hover()
    const undoTurn = turn.getByRole('button', { name: 'Undo this turn and after' })
    await expect(undoTurn).toBeVisible()
    await shot('00-turn-undo')
    await undoTurn.click()

    const dialog = page.getByRole('dialog', { name: "Undo alice's turn and what followed" })
    const notes = dialog.getByTestId('undo-file-notes.txt')
    await expect(notes).toContainText('restored', { timeout: TEAM_TIMEOUT })
    // The diff, from now to what the undo restores.
    await expect(notes.locator('.diff-line', { hasText: 'v1' }).first()).toBeVisible()
    await expect(dialog.getByTestId('undo-file-README.md')).toContainText('brought back')
    await expect(dialog.getByTestId('undo-file-added.txt')).toContainText('removed')
    await expect(dialog.getByText(/ignored file/)).toBeVisible()
    await expect(dialog.getByTestId('undo-turns')).toContainText('will be marked Undone')
    await shot('01-plan')

    await dialog.getByRole('button', { name: 'Undo', exact: true }).click()
    await expect(dialog.getByTestId('undo-undone')).toBeVisible({ timeout: TEAM_TIMEOUT })
    expect(read('notes.txt')).toBe('v1\n')
    expect(read('README.md')).toBe('# Notes\n')
    expect(existsSync(inWorktree('added.txt'))).toBe(false)
    // Ignored files are not covered: left as they are.
    expect(read('build/out.log')).toBe('log\n')
    await dialog.getByRole('button', { name: 'Close' }).last().click()
    await expect(dialog).toBeHidden()
    // She is told in her inbox (which wakes her); a redo waits until she rests.
    await aliceSaid(NOTED, 1)
    expect(transcriptFile()).toContain('undid your work')

    // The undone turn stays in the transcript, marked.
    const badge = transcript.getByTestId('undone-badge')
    await expect(badge).toContainText('Undone', { timeout: TEAM_TIMEOUT })
    await expect(transcript.getByTestId('undo-line')).toContainText('You undid entries')
    await badge.scrollIntoViewIfNeeded()
    await shot('02-undone-mark')

    // Redo from the mark: the files as they were, the mark gone.
    await badge.getByRole('button', { name: 'Redo' }).click()
    await expect(transcript.locator('[data-undone="true"]', { hasText: 'echo v2' })).toHaveCount(
      0,
      {
        timeout: TEAM_TIMEOUT,
      },
    )
    expect(read('notes.txt')).toBe('v2\n')
    expect(existsSync(inWorktree('README.md'))).toBe(false)
    expect(read('added.txt')).toBe('new\n')
    await aliceSaid(NOTED, 2)
    expect(pageErrors).toEqual([])
  })

  test('Changes’ "Undo last turn" keeps a file the person changed since, unless ticked', async () => {
    test.setTimeout(3 * TEAM_TIMEOUT)
    await tellAlice('echo v3 > notes.txt && echo more > more.txt')
    expect(read('more.txt')).toBe('more\n')
    // The person edits one of her files in her worktree after her turn.
    writeFileSync(inWorktree('notes.txt'), 'edited by the person\n')
    await page.getByRole('tab', { name: 'Changes' }).click()
    const undoLast = page.getByRole('button', { name: 'Undo last turn' })
    await expect(undoLast).toBeEnabled({ timeout: TEAM_TIMEOUT })
    await undoLast.click()

    const dialog = page.getByRole('dialog', { name: "Undo alice's last turn" })
    const notes = dialog.getByTestId('undo-file-notes.txt')
    await expect(notes).toContainText('changed by you since', { timeout: TEAM_TIMEOUT })
    await expect(notes.getByRole('checkbox', { name: 'Overwrite anyway' })).not.toBeChecked()
    await expect(notes).toContainText('kept')
    await expect(dialog.getByTestId('undo-file-more.txt')).toContainText('removed')
    await shot('03-conflict')

    await dialog.getByRole('button', { name: 'Undo', exact: true }).click()
    await expect(dialog.getByTestId('undo-undone')).toContainText('notes.txt', {
      timeout: TEAM_TIMEOUT,
    })
    // Kept as the person left it; her own file is gone.
    expect(read('notes.txt')).toBe('edited by the person\n')
    expect(existsSync(inWorktree('more.txt'))).toBe(false)
    await dialog.getByRole('button', { name: 'Close' }).last().click()
    // She reads the undo's notice in her inbox (a turn of its own) and rests again.
    await aliceSaid(NOTED, 3)
    expect(pageErrors).toEqual([])
  })

  test('a reset of commits another branch holds is refused, with the reason; Undo is off', async () => {
    test.setTimeout(2 * TEAM_TIMEOUT)
    await page.getByRole('tab', { name: 'Transcript' }).click()
    await tellAlice(
      'echo v4 > notes.txt && git add -A && git -c user.name=alice -c user.email=alice@example.com commit -q -m Notes',
    )
    expect(git(worktree(), 'log', '-1', '--format=%an %s')).toBe('alice Notes')
    // Another branch holds her commit: a reset would not take it back.
    git(workspace, 'branch', 'keep-notes', 'team/alice')

    await page.getByRole('tab', { name: 'Changes' }).click()
    await page.getByRole('button', { name: 'Undo last turn' }).click()
    const dialog = page.getByRole('dialog', { name: "Undo alice's last turn" })
    await expect(dialog.getByTestId('undo-refusal')).toBeVisible({ timeout: TEAM_TIMEOUT })
    const undo = dialog.getByRole('button', { name: 'Undo', exact: true })
    await expect(undo).toBeDisabled()
    await expect(dialog.getByTestId('undo-blocked')).toBeVisible()
    await shot('04-refused-reset')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    // Nothing moved.
    expect(git(worktree(), 'log', '-1', '--format=%an %s')).toBe('alice Notes')
    expect(read('notes.txt')).toBe('v4\n')
    expect(pageErrors).toEqual([])
  })

  test('Settings show the checkpoint policy and the disk the checkpoints take, and set it', async () => {
    await page.getByRole('button', { name: 'Settings' }).click()
    const section = page.getByRole('group', { name: 'Checkpoints for undo' })
    await expect(section.getByTestId('checkpoint-disk')).toContainText(/\d+ checkpoints take about/)
    const count = section.getByLabel(/Keep at most/)
    await expect(count).toHaveValue('500')
    await count.fill('100')
    await section.getByLabel(/for at most/).fill('7')
    await section.scrollIntoViewIfNeeded()
    await shot('05-settings-policy')
    await section.getByRole('button', { name: 'Save checkpoint policy' }).click()
    await expect(section.getByText('Saved.')).toBeVisible()
    await page.getByRole('button', { name: 'Cancel' }).click()
    // Kept for the team: read again, the policy is the one saved.
    await page.getByRole('button', { name: 'Settings' }).click()
    await expect(
      page.getByRole('group', { name: 'Checkpoints for undo' }).getByLabel(/Keep at most/),
    ).toHaveValue('100')
    await page.getByRole('button', { name: 'Cancel' }).click()
    expect(pageErrors).toEqual([])
  })
})
