import { mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { TeamError } from '../../shared/errors'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../shared/json-limits'
import {
  approvalRuleSchema,
  needsYouEntrySchema,
  type ApprovalRule,
  type NeedsYouEntry,
} from '../../shared/needs-you'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'

export const NEEDS_YOU_FORMAT_VERSION = 1
/** Settled entries kept for the record; pending ones are always kept. */
const SETTLED_KEPT = 200
const MAX_RULES = 1000

const fileSchema = z.object({
  v: z.literal(NEEDS_YOU_FORMAT_VERSION),
  entries: z.array(needsYouEntrySchema),
  rules: z.array(approvalRuleSchema).max(MAX_RULES).default([]),
})
export type NeedsYouFile = z.infer<typeof fileSchema>

export function needsYouPath(paths: TeamPaths): string {
  return join(paths.root, 'needs-you.json')
}

/**
 * `.team/needs-you.json`: the queue's entries and the "approve always" rules, replaced atomically
 * by the runtime alone at every change, so a pending entry survives a crash. The CLI reads it;
 * its answers reach the runtime through control.jsonl.
 */
export class NeedsYouStore {
  private readonly entries = new Map<string, NeedsYouEntry>()
  private rules: ApprovalRule[] = []

  private constructor(private readonly path: string) {}

  static open(paths: TeamPaths): NeedsYouStore {
    const store = new NeedsYouStore(needsYouPath(paths))
    const file = readNeedsYou(store.path)
    for (const entry of file.entries) store.entries.set(entry.id, entry)
    store.rules = file.rules
    return store
  }

  get(id: string): NeedsYouEntry | undefined {
    return this.entries.get(id)
  }

  all(): NeedsYouEntry[] {
    return [...this.entries.values()]
  }

  allRules(): readonly ApprovalRule[] {
    return this.rules
  }

  put(entry: NeedsYouEntry): NeedsYouEntry {
    this.entries.set(entry.id, entry)
    this.save()
    return entry
  }

  addRule(rule: ApprovalRule): void {
    const same = this.rules.some(
      (existing) =>
        existing.agent === rule.agent &&
        existing.tool === rule.tool &&
        existing.pattern === rule.pattern,
    )
    if (same) return
    this.rules = [...this.rules, rule].slice(-MAX_RULES)
    this.save()
  }

  private save(): void {
    const all = this.all()
    const settled = all.filter((entry) => entry.status !== 'pending')
    const dropped = new Set(settled.slice(0, Math.max(0, settled.length - SETTLED_KEPT)))
    for (const entry of dropped) this.entries.delete(entry.id)
    mkdirSync(dirname(this.path), { recursive: true })
    const file: NeedsYouFile = {
      v: NEEDS_YOU_FORMAT_VERSION,
      entries: this.all(),
      rules: this.rules,
    }
    writeFileAtomicSync(this.path, `${JSON.stringify(file, null, 2)}\n`)
  }
}

/** The queue as the file holds it (empty when there is none); a damaged file is refused. */
export function readNeedsYou(path: string): NeedsYouFile {
  const remedy =
    'Move it aside to start the queue afresh (its pending requests are then asked again by their agents or forgotten).'
  const text = readRegularTextSync(path, {
    what: 'The Needs-you queue',
    maxBytes: FILE_CAPS.record,
    remedy,
  })
  if (text === null) return { v: NEEDS_YOU_FORMAT_VERSION, entries: [], rules: [] }
  let value: unknown = null
  if (!jsonTextTooDeep(text, MAX_JSON_DEPTH)) {
    try {
      value = JSON.parse(text)
    } catch {
      value = null
    }
  }
  const parsed = fileSchema.safeParse(value)
  if (!parsed.success) throw new TeamError('file-invalid', `${path} is damaged. ${remedy}`)
  return parsed.data
}
