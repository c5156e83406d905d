import { mkdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { z } from 'zod'
import { TeamError } from '../../shared/errors'
import { jsonTextTooDeep, MAX_JSON_DEPTH } from '../../shared/json-limits'
import {
  BUILT_IN_PROFILES,
  isBuiltInProfile,
  profileSchema,
  type Profile,
  type ProfileView,
} from '../../shared/profiles'
import { writeFileAtomicSync } from '../fs/durable'
import { FILE_CAPS, readRegularTextSync } from '../fs/safe-open'
import type { TeamPaths } from '../team/paths'

export const PROFILES_FORMAT_VERSION = 1
/** More is not a team's set of roles; a bound keeps every reader of the file cheap. */
export const MAX_CUSTOM_PROFILES = 100

const fileSchema = z
  .object({
    v: z.literal(PROFILES_FORMAT_VERSION),
    profiles: z.array(profileSchema).max(MAX_CUSTOM_PROFILES),
  })
  .superRefine((file, context) => {
    const seen = new Set<string>()
    file.profiles.forEach((profile, index) => {
      if (isBuiltInProfile(profile.name) || seen.has(profile.name))
        context.addIssue({
          code: 'custom',
          path: ['profiles', index, 'name'],
          message: `"${profile.name}" is ${seen.has(profile.name) ? 'defined twice' : 'a built-in profile'}`,
        })
      seen.add(profile.name)
    })
  })

/** What the store asks of the workspace's trust (the file may have come with the workspace). */
export interface ProfileTrust {
  /** Why custom profiles may not be used now (the workspace is not trusted), or null. */
  readonly refusal: () => string | null
  /** Runs the person's save or removal: a trusted workspace stays trusted. */
  readonly keep: <T>(change: () => T) => T
}

/** No trust to ask: every custom profile is usable (a store read outside a team). */
const ALWAYS: ProfileTrust = { refusal: () => null, keep: (change) => change() }

export function profilesPath(paths: TeamPaths): string {
  return join(paths.root, 'profiles.json')
}

/**
 * The team's custom profiles, `.team/profiles.json` (`{"v":1,"profiles":[…]}`), replaced
 * atomically. Read again whenever the file changed (size, time or inode), so an edit by hand or
 * by the CLI applies to every agent's next model call. A file that does not parse is refused
 * with its reason and never overwritten; meanwhile only the built-in profiles apply.
 */
export class ProfileStore {
  private cached: { key: string; profiles: Profile[]; problem: string | null } | null = null

  constructor(
    private readonly path: string,
    /** Asked at every look: custom profiles apply only while the workspace is trusted. */
    private readonly trust: ProfileTrust = ALWAYS,
  ) {}

  static of(paths: TeamPaths, trust?: ProfileTrust): ProfileStore {
    return new ProfileStore(profilesPath(paths), trust)
  }

  /** Built-in profiles first, then the custom ones, in the file's order (usable or not). */
  list(): ProfileView[] {
    return [
      ...BUILT_IN_PROFILES.map((profile) => ({ ...profile, builtIn: true })),
      ...this.custom().map((profile) => ({ ...profile, builtIn: false })),
    ]
  }

  /** A profile an agent may have now: a custom one only while custom profiles may be used. */
  find(name: string): Profile | undefined {
    const builtIn = BUILT_IN_PROFILES.find((profile) => profile.name === name)
    if (builtIn !== undefined || this.trust.refusal() !== null) return builtIn
    return this.custom().find((profile) => profile.name === name)
  }

  /** Why the custom profiles cannot be used (the file is damaged, or not trusted), or null. */
  problem(): string | null {
    this.load()
    return this.cached?.problem ?? this.trust.refusal()
  }

  /** The person adds or replaces a custom profile; a built-in name is refused. */
  save(input: unknown): Profile {
    return this.trust.keep(() => this.saveNow(input))
  }

  /** The person removes a custom profile. */
  remove(name: string): void {
    this.trust.keep(() => this.removeNow(name))
  }

  private saveNow(input: unknown): Profile {
    const parsed = profileSchema.safeParse(input)
    if (!parsed.success)
      throw new TeamError('invalid-argument', `Invalid profile: ${describeIssues(parsed.error)}`)
    const profile = parsed.data
    if (isBuiltInProfile(profile.name))
      throw new TeamError(
        'reserved-name',
        `"${profile.name}" is a built-in profile; give the custom one another name.`,
      )
    const profiles = this.writable()
    const index = profiles.findIndex((candidate) => candidate.name === profile.name)
    if (index === -1) {
      if (profiles.length >= MAX_CUSTOM_PROFILES)
        throw new TeamError(
          'limit-reached',
          `A team has at most ${MAX_CUSTOM_PROFILES} custom profiles; remove one first.`,
        )
      profiles.push(profile)
    } else profiles[index] = profile
    this.write(profiles)
    return profile
  }

  private removeNow(name: string): void {
    const profiles = this.writable()
    const kept = profiles.filter((profile) => profile.name !== name)
    if (kept.length === profiles.length)
      throw new TeamError('not-found', `There is no custom profile "${name}".`)
    this.write(kept)
  }

  private custom(): Profile[] {
    this.load()
    return this.cached?.profiles ?? []
  }

  /** The current custom profiles, for a change; a damaged file is never overwritten. */
  private writable(): Profile[] {
    this.load()
    const problem = this.cached?.problem ?? null
    if (problem !== null) throw new TeamError('file-invalid', problem)
    return [...this.custom()]
  }

  private write(profiles: Profile[]): void {
    mkdirSync(dirname(this.path), { recursive: true })
    writeFileAtomicSync(
      this.path,
      `${JSON.stringify({ v: PROFILES_FORMAT_VERSION, profiles }, null, 2)}\n`,
    )
    this.cached = null
  }

  private load(): void {
    const key = fileKey(this.path)
    if (this.cached?.key === key) return
    try {
      this.cached = { key, profiles: readProfiles(this.path), problem: null }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      this.cached = { key, profiles: [], problem: message }
    }
  }
}

/** The custom profiles in a file, or a TeamError naming the file and what to do. */
export function readProfiles(path: string): Profile[] {
  const remedy = 'Fix it or move it aside; until then only the built-in profiles apply.'
  const text = readRegularTextSync(path, {
    what: 'The profiles file',
    maxBytes: FILE_CAPS.record,
    remedy,
  })
  if (text === null) return []
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH))
    throw new TeamError(
      'file-invalid',
      `${path} is nested too deep to be a profiles file. ${remedy}`,
    )
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new TeamError(
      'file-invalid',
      `${path} is not valid JSON (${(error as Error).message}). ${remedy}`,
    )
  }
  const parsed = fileSchema.safeParse(value)
  if (!parsed.success)
    throw new TeamError(
      'file-invalid',
      `${path} is not a profiles file: ${describeIssues(parsed.error)}. ${remedy}`,
    )
  return parsed.data.profiles
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`)
    .join('; ')
}

/** Changes whenever the file is replaced or written; "none" when it does not exist. */
function fileKey(path: string): string {
  try {
    const stats = statSync(path)
    return `${stats.ino}:${stats.size}:${stats.mtimeMs}`
  } catch {
    return 'none'
  }
}
