// Reading V8 CPU profiles (node --cpu-prof, or Chromium's Profiler domain): self time per
// function and per source file, so that a missed target names what holds it back.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}
export interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
  startTime: number
  endTime: number
}

export interface ProfileSummary {
  /** Sampled time, idle excluded, ms. */
  readonly busyMs: number
  readonly idleMs: number
  /** Share of busy time by where the code lives (our file, a package, node internals, GC). */
  readonly byPlace: { place: string; ms: number; share: number }[]
  /**
   * Time by the nearest frame on the stack that is our code or a package's (a sample in node's
   * fetch called by the SDK counts for the SDK; one in fsync called by our store, for the store).
   */
  readonly byOwner: { owner: string; ms: number; share: number }[]
  /** The functions with the most self time. */
  readonly topFunctions: { fn: string; place: string; ms: number; share: number }[]
}

/** Module ranges of an esbuild bundle (not minified): each module starts with a `// path` line. */
function bundleModules(bundle: string): { line: number; path: string }[] {
  const modules: { line: number; path: string }[] = []
  readFileSync(bundle, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const match = /^\/\/ ((?:src|tests|bench|node_modules)\/\S+)$/.exec(text)
      if (match?.[1]) modules.push({ line: index, path: match[1] })
    })
  return modules
}

function placeOf(
  url: string,
  line: number,
  functionName: string,
  bundles: Map<string, { line: number; path: string }[]>,
): string {
  if (functionName === '(garbage collector)') return 'GC'
  if (functionName === '(program)') return '(program: V8/native, no JS frame)'
  if (url === '') return functionName.startsWith('(') ? functionName : `native: ${functionName}`
  let path = url.replace(/^file:\/\//, '')
  const modules = bundles.get(path)
  if (modules) {
    let found = 'bundle'
    for (const module of modules) {
      if (module.line > line) break
      found = module.path
    }
    path = found
  }
  const packageMatch = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  if (packageMatch?.[1]) return `package ${packageMatch[1]}`
  if (path.includes('deps/undici')) return 'node internals: undici (fetch)'
  if (path.startsWith('node:')) return `node internals: ${path.replace(/^node:(internal\/)?/, '')}`
  const ours = /((?:src|tests|bench)\/.*)$/.exec(path)
  if (ours?.[1]) return ours[1]
  return path
}

/** Maps a frame of a minified script to its original file and name (a source map). */
export type FrameResolver = (
  url: string,
  line: number,
  column: number,
) => { source: string; name: string | null } | null

export function summarizeProfile(
  profile: CpuProfile,
  options: {
    bundles?: readonly string[]
    top?: number
    idle?: readonly string[]
    resolve?: FrameResolver
    /** Leaves out the samples of the profile's first ms (a process's start-up). */
    skipFirstMs?: number
  } = {},
): ProfileSummary {
  const bundles = new Map((options.bundles ?? []).map((path) => [path, bundleModules(path)]))
  const selfTime = new Map<number, number>()
  const skipUs = (options.skipFirstMs ?? 0) * 1000
  let elapsed = 0
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0
    elapsed += delta
    if (elapsed < skipUs) return
    selfTime.set(id, (selfTime.get(id) ?? 0) + delta)
  })
  const idleNames = new Set(['(idle)', ...(options.idle ?? [])])
  const parent = new Map<number, ProfileNode>()
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parent.set(child, node)
  }
  const placeCache = new Map<number, string>()
  const nameCache = new Map<number, string>()
  const nodePlace = (node: ProfileNode): string => {
    let place = placeCache.get(node.id)
    if (place === undefined) {
      const frame = node.callFrame
      const mapped =
        options.resolve && frame.url.startsWith('http')
          ? options.resolve(frame.url, frame.lineNumber, frame.columnNumber)
          : null
      place = mapped
        ? placeOf(`file:///${mapped.source}`, 0, frame.functionName, bundles)
        : placeOf(frame.url, frame.lineNumber, frame.functionName, bundles)
      if (mapped?.name) nameCache.set(node.id, mapped.name)
      placeCache.set(node.id, place)
    }
    return place
  }
  const nodeName = (node: ProfileNode): string => {
    nodePlace(node)
    return nameCache.get(node.id) ?? (node.callFrame.functionName || '(anonymous)')
  }
  const isOwner = (place: string) =>
    place.startsWith('src/') || place.startsWith('package ') || place.startsWith('bench/')
  const owners = new Map<string, number>()
  const places = new Map<string, number>()
  const functions = new Map<string, { fn: string; place: string; us: number }>()
  let busy = 0
  let idle = 0
  for (const node of profile.nodes) {
    const us = selfTime.get(node.id) ?? 0
    if (us === 0) continue
    const frame = node.callFrame
    if (idleNames.has(frame.functionName)) {
      idle += us
      continue
    }
    busy += us
    const place = nodePlace(node)
    places.set(place, (places.get(place) ?? 0) + us)
    let owner = `(${place})`
    for (let at: ProfileNode | undefined = node; at !== undefined; at = parent.get(at.id)) {
      const atPlace = nodePlace(at)
      if (isOwner(atPlace)) {
        owner = atPlace.startsWith('src/') ? `${nodeName(at)} ${atPlace}` : atPlace
        break
      }
    }
    owners.set(owner, (owners.get(owner) ?? 0) + us)
    const fn = nodeName(node)
    const key = `${fn}@${place}:${frame.lineNumber}`
    const entry = functions.get(key) ?? { fn, place, us: 0 }
    entry.us += us
    functions.set(key, entry)
  }
  const share = (us: number) => (busy === 0 ? 0 : Math.round((1000 * us) / busy) / 10)
  return {
    busyMs: Math.round(busy / 1000),
    idleMs: Math.round(idle / 1000),
    byPlace: [...places]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([place, us]) => ({ place, ms: Math.round(us / 1000), share: share(us) })),
    byOwner: [...owners]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([owner, us]) => ({ owner, ms: Math.round(us / 1000), share: share(us) })),
    topFunctions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, options.top ?? 15)
      .map((entry) => ({
        fn: entry.fn,
        place: entry.place,
        ms: Math.round(entry.us / 1000),
        share: share(entry.us),
      })),
  }
}

/** The one .cpuprofile node wrote into `directory` (node --cpu-prof --cpu-prof-dir). */
export function readProfileDirectory(directory: string): CpuProfile[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => JSON.parse(readFileSync(join(directory, file), 'utf8')) as CpuProfile)
}

/** "42 % package @anthropic-ai/sdk, 20 % src/…": the leading places, for a note. */
export function describePlaces(summary: ProfileSummary, count = 5): string {
  return summary.byPlace
    .slice(0, count)
    .map((entry) => `${entry.share} % ${entry.place}`)
    .join(', ')
}

export function describeOwners(summary: ProfileSummary, count = 6): string {
  return summary.byOwner
    .slice(0, count)
    .map((entry) => `${entry.share} % ${entry.owner}`)
    .join(', ')
}

export function describeFunctions(summary: ProfileSummary, count = 5): string {
  return summary.topFunctions
    .slice(0, count)
    .map((entry) => `${entry.fn} (${entry.place}) ${entry.share} %`)
    .join('; ')
}
