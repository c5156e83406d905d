import { existsSync, lstatSync, statSync } from 'node:fs'
import type { TrustReason, TrustView } from '../../shared/trust'
import type { TeamPaths } from '../team/paths'
import { probeSandbox } from '../tools/bash-sandbox'
import {
  fingerprintOf,
  grantChanges,
  grantHashes,
  NOTHING_GRANTED,
  type GrantHashes,
} from './grant-items'
import { grantFiles, readGrants, type GrantsReading } from './grants'
import type { WorkspaceTrustStore } from './trust-store'

/** How a team opens with respect to trust. */
export interface TrustOptions {
  /** Where the person's agreements are kept (the user's config folder); null keeps none. */
  readonly store: WorkspaceTrustStore | null
  /** `--trust-workspace`: agrees, for this run only, to what the workspace grants as it opens. */
  readonly forRun?: boolean
}

/** What the team's features ask: whether the trust holds, and the person's own changes. */
export interface TrustGate {
  isTrusted(): boolean
  /**
   * Runs a change the person makes through the app (a host allowed, a rule, a profile, a
   * server): a workspace trusted before it stays trusted, with the new grants agreed to.
   */
  keep<T>(change: () => T): T
}

export interface WorkspaceTrustDependencies {
  /** Where `${VAR}` in the MCP configuration comes from. */
  readonly env: NodeJS.ProcessEnv
  /** Told the view whenever what it says changes (the `trust-changed` event). */
  readonly publish: (view: TrustView) => void
  /** Told (soon after, never from inside a check) that the trust began or stopped holding. */
  readonly changed: () => void
  /**
   * How often the grants are looked at again while nothing asks: `.mcp.json` and the servers'
   * scripts are outside `.team/`, where no watcher looks. Null: only when asked.
   */
  readonly checkEveryMs?: number | null
}

interface Agreement {
  readonly hashes: GrantHashes
  readonly fingerprint: string
  readonly reason: Extract<TrustReason, 'made-here' | 'agreed' | 'for-this-run'>
}

interface Current {
  readonly reading: GrantsReading
  readonly hashes: GrantHashes
  readonly fingerprint: string
  /** The inputs' state when they were read; '' when they must be read again. */
  readonly signature: string
}

/**
 * Whether the person trusts what a workspace grants its agents. It is asked at every use (a
 * server's start, bash's hosts, a rule, a profile, a wake), and it reads the grants again only
 * when one of the files they come from changed (a `stat` of each tells), so a hand edit, a
 * `git pull` or an agent's edit of a server's script is seen at the next use.
 */
export class WorkspaceTrust implements TrustGate {
  private agreement: Agreement | null = null
  /** The fingerprint the person said "not now" to, in this session. */
  private declinedAt: string | null = null
  private current: Current | null = null
  private storeSignature = ''
  private trusted = false
  private published = ''
  private changePending = false
  private timer: NodeJS.Timeout | null = null
  private closed = false

  constructor(
    private readonly paths: TeamPaths,
    private readonly options: TrustOptions,
    private readonly dependencies: WorkspaceTrustDependencies,
  ) {}

  /**
   * Decides the trust as the team opens. `madeHere`: its `.team/` did not exist before, so
   * the app makes it and it holds nothing the person did not see (recorded unless `inspect`:
   * the CLI looking before a team opens).
   */
  open(madeHere: boolean, inspect = false): void {
    const now = this.read()
    const recorded = this.recorded()
    // What the person agreed to for this path before (the terminal's question) still holds.
    const fresh = madeHere && recorded?.fingerprint !== now.fingerprint
    if (fresh && !inspect) this.options.store?.rememberMadeHere(this.paths.workspace)
    if (this.options.forRun === true)
      this.agreement = { hashes: now.hashes, fingerprint: now.fingerprint, reason: 'for-this-run' }
    else if (fresh)
      this.agreement = { hashes: {}, fingerprint: NOTHING_GRANTED, reason: 'made-here' }
    else this.agreement = recorded
    this.storeSignature = this.storeState()
    this.trusted = this.holds(now)
    // The snapshot a window opens with carries this view: only changes are published.
    this.published = this.summary(now)
    const every = this.dependencies.checkEveryMs
    if (every !== undefined && every !== null) {
      this.timer = setInterval(() => this.refresh(), every)
      this.timer.unref()
    }
  }

  /**
   * Whether the trust holds now. It looks first (a stat of each file the grants come from, a
   * read of those that changed), since a grant must never apply on a stale answer; a change it
   * finds is published as the periodic look would publish it. The look is the point of
   * asking, so it is not left to the timer.
   */
  isTrusted(): boolean {
    return this.refresh()
  }

  view(): TrustView {
    this.refresh()
    return this.build(this.read())
  }

  /** The person agrees to what the workspace grants now: remembered, and it applies at once. */
  trust(): TrustView {
    const now = this.read()
    this.agreement = { hashes: now.hashes, fingerprint: now.fingerprint, reason: 'agreed' }
    this.options.store?.remember(this.paths.workspace, now.hashes, 'agreed')
    this.storeSignature = this.storeState()
    this.declinedAt = null
    return this.view()
  }

  /** The person said "not now": nothing applies, and the window asks again only on a change. */
  decline(): TrustView {
    this.declinedAt = this.read().fingerprint
    return this.view()
  }

  keep<T>(change: () => T): T {
    const before = this.isTrusted()
    try {
      return change()
    } finally {
      if (before && this.agreement !== null) {
        const now = this.read()
        const reason = this.agreement.reason === 'for-this-run' ? 'for-this-run' : 'agreed'
        this.agreement = { hashes: now.hashes, fingerprint: now.fingerprint, reason }
        if (reason === 'agreed') {
          this.options.store?.remember(this.paths.workspace, now.hashes, 'agreed')
          this.storeSignature = this.storeState()
        }
      }
      this.refresh()
    }
  }

  close(): void {
    this.closed = true
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
  }

  private refresh(): boolean {
    const now = this.read()
    // Another process of the person's (`agent-teams trust --yes`, `mcp add`) may have agreed.
    const store = this.storeState()
    if (store !== this.storeSignature) {
      this.storeSignature = store
      const recorded = this.recorded()
      if (
        recorded !== null &&
        (this.agreement === null || recorded.fingerprint === now.fingerprint)
      )
        this.agreement = recorded
    }
    const trusted = this.holds(now)
    if (trusted !== this.trusted) {
      this.trusted = trusted
      this.announceChange()
    }
    const text = this.summary(now)
    if (!this.closed && text !== this.published) {
      this.published = text
      this.dependencies.publish(this.build(now))
    }
    return trusted
  }

  private announceChange(): void {
    if (this.changePending || this.closed) return
    this.changePending = true
    // Never from inside a check: the listener stops and starts servers, which check again.
    queueMicrotask(() => {
      this.changePending = false
      if (!this.closed) this.dependencies.changed()
    })
  }

  private holds(now: Current): boolean {
    return this.agreement !== null && this.agreement.fingerprint === now.fingerprint
  }

  private recorded(): Agreement | null {
    const record = this.options.store?.record(this.paths.workspace) ?? null
    return record === null
      ? null
      : { hashes: record.items, fingerprint: record.fingerprint, reason: record.how }
  }

  private build(now: Current): TrustView {
    const trusted = this.holds(now)
    const agreement = this.agreement
    return {
      workspace: this.paths.workspace,
      trusted,
      reason: reasonOf(trusted, agreement),
      declined: !trusted && this.declinedAt === now.fingerprint,
      grants: now.reading.grants,
      changes: agreement === null || trusted ? [] : grantChanges(agreement.hashes, now.hashes),
      sandbox: probeSandbox(),
      problems: now.reading.problems,
    }
  }

  /** The grants as they are now, read again only when a file they come from changed. */
  private read(): Current {
    const inputs = this.current?.reading.inputs ?? grantFiles(this.paths)
    const before = signatureOf(inputs)
    if (this.current !== null && this.current.signature === before) return this.current
    const reading = readGrants(this.paths, this.dependencies.env)
    const hashes = grantHashes(reading.grants)
    // Read against other inputs (a server now names other files): look again next time, so
    // the signature always describes what was read.
    const same =
      reading.inputs.length === inputs.length &&
      reading.inputs.every((path, index) => path === inputs[index])
    this.current = {
      reading,
      hashes,
      fingerprint: fingerprintOf(hashes),
      signature: same ? before : '',
    }
    return this.current
  }

  /** What a window needs to hear about changed: cheap to tell, unlike the whole view. */
  private summary(now: Current): string {
    const agreed =
      this.agreement === null ? '' : `${this.agreement.reason}:${this.agreement.fingerprint}`
    return [
      this.holds(now),
      agreed,
      this.declinedAt,
      now.fingerprint,
      now.reading.problems.join('\n'),
    ].join('|')
  }

  private storeState(): string {
    const store = this.options.store
    return store === null ? '' : signatureOf([store.file])
  }
}

function reasonOf(trusted: boolean, agreement: Agreement | null): TrustReason {
  if (agreement === null) return 'no-record'
  if (trusted) return agreement.reason
  return agreement.reason === 'made-here' ? 'not-reviewed' : 'changed'
}

/**
 * What a team opening now would find, without opening it or writing anything: the CLI's
 * question before `chat`, `demo` and `serve`, `agent-teams trust`, and `mcp add|remove`.
 */
export function inspectTrust(
  paths: TeamPaths,
  options: TrustOptions,
  env: NodeJS.ProcessEnv,
): WorkspaceTrust {
  const trust = new WorkspaceTrust(paths, options, {
    env,
    publish: () => undefined,
    changed: () => undefined,
  })
  trust.open(!existsSync(paths.root), true)
  return trust
}

/** Each file's identity, size and times (to the nanosecond), its link's too: equal means unchanged. */
function signatureOf(paths: readonly string[]): string {
  return paths
    .map((path) => {
      try {
        const link = lstatSync(path, { bigint: true, throwIfNoEntry: false })
        const file = link?.isSymbolicLink()
          ? statSync(path, { bigint: true, throwIfNoEntry: false })
          : link
        const describe = (stats: typeof link): string =>
          stats === undefined ? '-' : `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`
        return `${describe(link)}/${describe(file)}`
      } catch (error) {
        // A path through a file (ENOTDIR) or a folder it may not enter: told apart by the code.
        return `!${(error as NodeJS.ErrnoException).code ?? ''}`
      }
    })
    .join('|')
}
