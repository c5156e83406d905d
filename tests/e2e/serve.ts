import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test'

/**
 * Starts the real `agent-teams serve` as a child process, the way a person would from a
 * terminal, and reads the address it prints. Nothing of the runtime is imported here: the
 * test talks to it only over HTTP and the WebSocket, like the browser does.
 */

export const root = resolve(import.meta.dirname, '../..')
const command = join(root, 'bin/agent-teams.mjs')
const builtPage = join(root, 'out/renderer/index.html')

/** How long the server gets to print its address, and to exit after SIGTERM. */
const START_TIMEOUT_MS = 30_000
const STOP_TIMEOUT_MS = 15_000

const ADDRESS = /Agent Teams is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+))/

export interface ServeOptions {
  readonly workspace: string
  /**
   * XDG_CONFIG_HOME for the server: settings (and a saved key) live in `<it>/agent-teams/`; its
   * `data/` folder is the server's XDG_DATA_HOME (teammates' worktrees: `dataHome(configHome)`).
   */
  readonly configHome: string
  /** Left out (or 0): the server picks a free port itself and prints it. */
  readonly port?: number
  /** Variables beside a newcomer's (a key a workspace's `${VAR}` names, say). */
  readonly env?: Readonly<Record<string, string>>
  /** More arguments for `serve` (`--trust-workspace`). */
  readonly args?: readonly string[]
}

export interface RunningServer {
  /** The printed address, token included. */
  readonly url: string
  readonly port: number
  readonly token: string
  /** `http://127.0.0.1:PORT`, the page's own origin. */
  readonly origin: string
  readonly child: ChildProcess
  /** Everything the server printed so far, stdout and stderr interleaved. */
  output(): string
  /** SIGTERM, then waits for the exit; resolves with the exit code (SIGKILL after a timeout). */
  stop(): Promise<number | null>
}

/** Servers still running, so that a crashing test run does not leave one behind. */
const running = new Set<ChildProcess>()
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL')
})

/** The server's data folder (XDG_DATA_HOME) for a test's config folder. */
export function dataHome(configHome: string): string {
  return join(configHome, 'data')
}

/** The environment of a newcomer: no key, no endpoint, settings in a folder of their own. */
function newcomerEnv(configHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: configHome,
    XDG_DATA_HOME: dataHome(configHome),
  }
  for (const name of [
    'ANTHROPIC_API_KEY',
    'ANTHROPIC_AUTH_TOKEN',
    'ANTHROPIC_BASE_URL',
    'MODEL_ID',
  ])
    delete env[name]
  return env
}

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  if (!existsSync(builtPage))
    throw new Error(`Build the UI first: npx electron-vite build (no ${builtPage})`)
  const args = [command, 'serve', '--workspace', options.workspace]
  if (options.port !== undefined) args.push('--port', String(options.port))
  args.push(...(options.args ?? []))
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...newcomerEnv(options.configHome), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  running.add(child)
  let printed = ''
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code, signal) => {
      running.delete(child)
      printed += `\n[server exited: code ${code}, signal ${signal}]\n`
      resolveExit(code)
    })
  })
  child.stdout?.setEncoding('utf8')
  child.stderr?.setEncoding('utf8')
  child.stderr?.on('data', (chunk: string) => {
    printed += chunk
  })

  const address = await new Promise<RegExpExecArray>((resolveAddress, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`The server printed no address in ${START_TIMEOUT_MS} ms:\n${printed}`))
    }, START_TIMEOUT_MS)
    child.stdout?.on('data', (chunk: string) => {
      printed += chunk
      const match = ADDRESS.exec(printed)
      if (match) {
        clearTimeout(timer)
        resolveAddress(match)
      }
    })
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`The server exited before it printed its address:\n${printed}`))
    })
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL')
    await exited
    throw error
  })

  const [, url = '', port = '0', token = ''] = address
  let stopping: Promise<number | null> | null = null
  const stop = (): Promise<number | null> =>
    (stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return exited
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
      const code = await exited
      clearTimeout(timer)
      return code
    })())

  return {
    url,
    port: Number(port),
    token: decodeURIComponent(token),
    origin: `http://127.0.0.1:${port}`,
    child,
    output: () => printed,
    stop,
  }
}

/** Records a page's uncaught errors and its console errors (failed loads aside) in `errors`. */
export function watchErrors(page: Page, errors: string[]): void {
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`))
  page.on('console', (message) => {
    // A style or script the CSP refuses is a console error too, so it fails the spec.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
      errors.push(`console: ${message.text()}`)
  })
}

/** A page in a context of its own at `viewport`, whose errors go to `errors`. */
export async function openWatchedPage(
  browser: Browser,
  errors: string[],
  viewport: { width: number; height: number },
): Promise<Page> {
  const context = await browser.newContext({ viewport })
  const page = await context.newPage()
  watchErrors(page, errors)
  return page
}

/**
 * After a spec: closes its page's context, stops its server and removes its folders. Resolves
 * with the server's exit code, for the spec to expect a clean exit.
 */
export async function tearDown(
  context: BrowserContext | undefined,
  server: RunningServer | undefined,
  folders: readonly string[],
): Promise<number | null | undefined> {
  await context?.close()
  const code = await server?.stop()
  for (const folder of folders) if (folder !== '') rmSync(folder, { recursive: true, force: true })
  return code
}

/**
 * A fresh git repository for a spec's team: `main` with one commit ("Start", by Test Person) of
 * a README; removed by `tearDown` when passed to it.
 */
export function statisticsRepository(spec: string): string {
  const workspace = mkdtempSync(join(tmpdir(), `agent-teams-e2e-${spec}-workspace-`))
  const git = (...args: string[]): void => {
    execFileSync('git', args, {
      cwd: workspace,
      stdio: 'ignore',
      env: { ...process.env, LC_ALL: 'C' },
    })
  }
  git('init', '-q', '-b', 'main')
  git('config', 'user.name', 'Test Person')
  git('config', 'user.email', 'person@example.com')
  git('config', 'commit.gpgsign', 'false')
  writeFileSync(join(workspace, 'README.md'), '# Statistics\n')
  git('add', '-A')
  git('commit', '-q', '-m', 'Start')
  return workspace
}

/**
 * A settings folder of a person who chose the offline model before (the team opens without the
 * first-run screen), with `settings` beside that choice; removed by `tearDown`.
 */
export function offlineConfigHome(spec: string, settings: Record<string, unknown> = {}): string {
  const home = mkdtempSync(join(tmpdir(), `agent-teams-e2e-${spec}-config-`))
  mkdirSync(join(home, 'agent-teams'))
  writeFileSync(
    join(home, 'agent-teams', 'settings.json'),
    JSON.stringify({ useOfflineModel: true, ...settings }),
  )
  return home
}

/**
 * Opens the page at `url` and waits until the app has taken over from the server's first view
 * (src/shared/first-view.ts): before that the team is painted but no key is heard, and nothing
 * in it can be used.
 */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await expect(page.locator('#first-view')).toHaveCount(0, { timeout: 30_000 })
}
