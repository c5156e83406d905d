import { realpath, stat } from 'node:fs/promises'
import { extname, resolve, sep } from 'node:path'

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
}

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream'
}

/**
 * How long the browser may keep a file. The build names everything under assets/ by its
 * content (index-DUipFYOZ.js), so a changed file is a new address: those are kept for good, and
 * a reload runs the script from the browser's cache (and V8's code cache) instead of fetching
 * and compiling a megabyte again. Anything else, index.html first, names the current assets
 * and is asked for again each time.
 */
export function cacheControlOf(relativePath: string): string {
  return relativePath.startsWith('assets/') ? 'private, max-age=31536000, immutable' : 'no-cache'
}

export type StaticLookup =
  | { kind: 'file'; path: string; size: number; contentType: string; cacheControl: string }
  | { kind: 'bad-path' }
  | { kind: 'not-found' }

/**
 * Maps a URL path to a file inside `root`. Refuses, before touching the disk, anything that is
 * not a plain relative path once decoded: `..` segments (also as `%2e%2e`), backslashes, NUL
 * bytes, malformed escapes. Then checks the real path (symbolic links resolved) is still inside
 * the root, so a link cannot lead out of it. `/` is index.html; folders are never listed.
 */
export async function lookupStaticFile(root: string, urlPath: string): Promise<StaticLookup> {
  let decoded: string
  try {
    decoded = decodeURIComponent(urlPath)
  } catch {
    return { kind: 'bad-path' }
  }
  if (!decoded.startsWith('/') || decoded.includes('\\') || decoded.includes('\0'))
    return { kind: 'bad-path' }
  const segments = decoded.split('/').slice(1)
  if (segments.some((segment) => segment === '..' || segment === '.')) return { kind: 'bad-path' }
  const relative = decoded === '/' ? 'index.html' : segments.join('/')
  if (relative === '' || relative.endsWith('/')) return { kind: 'not-found' }

  let realRoot: string
  let realFile: string
  try {
    realRoot = await realpath(root)
    realFile = await realpath(resolve(realRoot, relative))
  } catch {
    return { kind: 'not-found' }
  }
  if (!realFile.startsWith(realRoot + sep)) return { kind: 'bad-path' }
  const stats = await stat(realFile).catch(() => null)
  if (stats === null || !stats.isFile()) return { kind: 'not-found' }
  return {
    kind: 'file',
    path: realFile,
    size: stats.size,
    contentType: contentTypeOf(realFile),
    cacheControl: cacheControlOf(relative),
  }
}
