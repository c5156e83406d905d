import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { TeamError } from '../../shared/errors'
import { protocolRequestViewSchema } from '../../shared/events'
import type { Clock } from '../system/clock'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'

export const PROTOCOLS_FORMAT_VERSION = 1

/**
 * A request as `.team/protocols.json` keeps it: the fields the UI sees (declared once, in
 * shared/events.ts) plus its times and the ids of the messages that announced it.
 */
const requestSchema = protocolRequestViewSchema.omit({ closed: true }).extend({
  created_at: z.number(),
  settled_at: z.number().nullable(),
  /**
   * The id of the message the runtime sent to announce the settlement. Only that message is
   * taken as the answer's notice: a line claiming a settlement the record does not hold is
   * refused (any program can append to an inbox; the record is written by the runtime alone).
   */
  settled_by: z.string().nullable().default(null),
  /** The id of the message the runtime sent to announce the request itself. */
  notice: z.string().nullable().default(null),
  /**
   * When the teammate was spawned again after this settled shutdown request: the request
   * concerns its earlier run and says nothing about the new one (null: it still applies).
   */
  closed_at: z.number().nullable().default(null),
})
export type ProtocolRequest = z.infer<typeof requestSchema>

const fileSchema = z.object({
  v: z.literal(PROTOCOLS_FORMAT_VERSION),
  requests: z.array(requestSchema),
})

/**
 * The s10 protocols' state — shutdown requests and plan reviews with their ids — in
 * `.team/protocols.json`, replaced atomically by the runtime alone, so that a pending request
 * survives a restart.
 */
export class ProtocolStore {
  private readonly requests = new Map<string, ProtocolRequest>()

  private constructor(
    private readonly path: string,
    private readonly clock: Clock,
  ) {}

  static open(paths: TeamPaths, clock: Clock): ProtocolStore {
    const store = new ProtocolStore(join(paths.root, 'protocols.json'), clock)
    for (const request of readProtocols(store.path)) store.requests.set(request.id, request)
    return store
  }

  get(id: string): ProtocolRequest | undefined {
    return this.requests.get(id)
  }

  all(): ProtocolRequest[] {
    return [...this.requests.values()]
  }

  create(
    request: Pick<ProtocolRequest, 'id' | 'kind' | 'from' | 'to'> & {
      plan?: string
      notice?: string
    },
  ): ProtocolRequest {
    if (this.requests.has(request.id))
      throw new TeamError('already-exists', `A request with id ${request.id} exists already.`)
    const created: ProtocolRequest = {
      ...request,
      plan: request.plan ?? null,
      notice: request.notice ?? null,
      status: 'pending',
      created_at: this.clock.now() / 1000,
      settled_at: null,
      reason: null,
      settled_by: null,
      closed_at: null,
    }
    this.requests.set(created.id, created)
    this.save()
    return created
  }

  settle(
    id: string,
    approved: boolean,
    reason: string | null,
    by: string | null = null,
  ): ProtocolRequest {
    const request = this.requests.get(id)
    if (!request || request.status !== 'pending')
      throw new TeamError('already-settled', `Request ${id} is not pending.`)
    const settled: ProtocolRequest = {
      ...request,
      status: approved ? 'approved' : 'rejected',
      settled_at: this.clock.now() / 1000,
      reason,
      settled_by: by,
    }
    this.requests.set(id, settled)
    this.save()
    return settled
  }

  /**
   * Closes the settled shutdown requests made to `teammate`: it was spawned again, so "shutting
   * down after this step" or "declined" belongs to its earlier run. Answers those it closed.
   */
  closeShutdowns(teammate: string): ProtocolRequest[] {
    const closed: ProtocolRequest[] = []
    for (const request of this.requests.values()) {
      if (request.kind !== 'shutdown' || request.to !== teammate) continue
      if (request.status === 'pending' || request.closed_at !== null) continue
      const updated = { ...request, closed_at: this.clock.now() / 1000 }
      this.requests.set(request.id, updated)
      closed.push(updated)
    }
    if (closed.length > 0) this.save()
    return closed
  }

  private save(): void {
    mkdirSync(join(this.path, '..'), { recursive: true })
    writeFileAtomicSync(
      this.path,
      `${JSON.stringify({ v: PROTOCOLS_FORMAT_VERSION, requests: this.all() }, null, 2)}\n`,
    )
  }
}

/** The requests in a protocols file, read-only (the CLI uses this to find a plan's teammate). */
export function readProtocols(path: string): ProtocolRequest[] {
  const text = readRegularTextSync(path, {
    what: 'The protocols file',
    maxBytes: FILE_CAPS.record,
    remedy:
      'Move it aside to start the protocols afresh (pending requests in it are then forgotten).',
  })
  if (text === null) return []
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    value = null
  }
  const parsed = fileSchema.safeParse(value)
  if (!parsed.success)
    throw new TeamError(
      'file-invalid',
      `${path} is damaged; move it aside to start the protocols afresh (pending requests in it are then forgotten).`,
    )
  return parsed.data.requests
}
