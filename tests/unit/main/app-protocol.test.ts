import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { appRequestPath, respond, responseHeaders } from '../../../src/main/app-protocol'
import { productionContentSecurityPolicy } from '../../../src/shared/content-security-policy'

describe('appRequestPath: which requests reach the file lookup', () => {
  it('passes GET and HEAD of the app origin, with / for an empty path', () => {
    expect(appRequestPath('GET', 'app://agent-teams/index.html')).toEqual({
      kind: 'path',
      path: '/index.html',
    })
    expect(appRequestPath('HEAD', 'app://agent-teams/assets/a.js?v=1#x')).toEqual({
      kind: 'path',
      path: '/assets/a.js',
    })
    expect(appRequestPath('GET', 'app://agent-teams')).toEqual({ kind: 'path', path: '/' })
  })

  it('folds dot segments before anything is looked up, so they cannot climb', () => {
    expect(appRequestPath('GET', 'app://agent-teams/../../etc/passwd')).toEqual({
      kind: 'path',
      path: '/etc/passwd',
    })
    expect(appRequestPath('GET', 'app://agent-teams/%2e%2e/%2E%2E/etc/passwd')).toEqual({
      kind: 'path',
      path: '/etc/passwd',
    })
  })

  it('refuses other methods, other origins and garbage', () => {
    expect(appRequestPath('POST', 'app://agent-teams/index.html')).toMatchObject({
      kind: 'refused',
      status: 405,
    })
    for (const url of [
      'app://other/index.html',
      'app://agent-teams:81/index.html',
      'file:///etc/passwd',
      'https://agent-teams/index.html',
    ])
      expect(appRequestPath('GET', url)).toMatchObject({ kind: 'refused', status: 403 })
    expect(appRequestPath('GET', 'not a url')).toMatchObject({ kind: 'refused', status: 400 })
  })
})

describe('responseHeaders', () => {
  it('sends the CSP with HTML only, and never lets the browser sniff a type', () => {
    const html = responseHeaders({ contentType: 'text/html; charset=utf-8', cacheControl: 'x' })
    expect(html.get('Content-Security-Policy')).toBe(productionContentSecurityPolicy)
    expect(html.get('X-Content-Type-Options')).toBe('nosniff')
    const script = responseHeaders({ contentType: 'text/javascript', cacheControl: 'x' })
    expect(script.get('Content-Security-Policy')).toBeNull()
  })
})

describe('respond: the app protocol over a real folder', () => {
  let folder: string
  let root: string

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'agent-teams-app-protocol-'))
    root = join(folder, 'renderer')
    mkdirSync(join(root, 'assets'), { recursive: true })
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Agent Teams</title>')
    writeFileSync(join(root, 'assets', 'index-abc.js'), 'console.log(1)')
    writeFileSync(join(root, 'assets', 'index-abc.css'), 'body{}')
    writeFileSync(join(root, 'assets', 'font.woff2'), 'w')
    writeFileSync(join(folder, 'secret.txt'), 'outside')
    symlinkSync(join(folder, 'secret.txt'), join(root, 'assets', 'link.txt'))
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  const get = (url: string, method = 'GET') => respond(root, method, url)

  it('serves index.html for / and by name, with its type and the CSP', async () => {
    for (const url of ['app://agent-teams/', 'app://agent-teams/index.html']) {
      const response = await get(url)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe('text/html; charset=utf-8')
      expect(response.headers.get('Content-Security-Policy')).toBe(productionContentSecurityPolicy)
      expect(await response.text()).toContain('<title>Agent Teams</title>')
    }
  })

  it('serves assets with their MIME types, kept for good (their names are their content)', async () => {
    const expected: Record<string, string> = {
      'index-abc.js': 'text/javascript; charset=utf-8',
      'index-abc.css': 'text/css; charset=utf-8',
      'font.woff2': 'font/woff2',
    }
    for (const [name, type] of Object.entries(expected)) {
      const response = await get(`app://agent-teams/assets/${name}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('Content-Type')).toBe(type)
      expect(response.headers.get('Cache-Control')).toContain('immutable')
    }
    expect(await (await get('app://agent-teams/assets/index-abc.js')).text()).toBe('console.log(1)')
  })

  it('answers HEAD without a body', async () => {
    const response = await get('app://agent-teams/index.html', 'HEAD')
    expect(response.status).toBe(200)
    expect(await response.text()).toBe('')
  })

  it('refuses traversal in every spelling, links out of the folder, and folders', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    try {
      // Folded by the URL parser to /secret.txt inside the root: not there, so 404.
      expect((await get('app://agent-teams/../secret.txt')).status).toBe(404)
      expect((await get('app://agent-teams/%2e%2e/secret.txt')).status).toBe(404)
      // Escaped separators decode into a climbing path: refused before the disk is read.
      expect((await get('app://agent-teams/assets%2f..%2f..%2fsecret.txt')).status).toBe(403)
      expect((await get('app://agent-teams/..%5c..%5csecret.txt')).status).toBe(403)
      expect((await get('app://agent-teams/index.html%00.js')).status).toBe(403)
      expect((await get('app://agent-teams/%E0%A4%A')).status).toBe(403)
      // A link inside the folder that leads out of it.
      const link = await get('app://agent-teams/assets/link.txt')
      expect(link.status).toBe(403)
      expect(await link.text()).not.toContain('outside')
      expect((await get('app://agent-teams/assets')).status).toBe(404)
      expect((await get('app://agent-teams/assets/')).status).toBe(404)
      expect((await get('app://agent-teams/missing.js')).status).toBe(404)
      expect((await get('app://evil/index.html')).status).toBe(403)
      expect((await get('app://agent-teams/index.html', 'POST')).status).toBe(405)
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('[app-protocol] 403'))
    } finally {
      warn.mockRestore()
    }
  })
})
