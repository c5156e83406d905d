import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { productionContentSecurityPolicy } from '../../../src/shared/content-security-policy'
import { APP_JS, http, INDEX_HTML, SECRET, startFixture, type Fixture } from './fixture'
import { ICON, TOKEN_PAGE_POLICY } from '../../../src/server/token-page'

const root = join(import.meta.dirname, '../../..')

describe('browser server: HTTP', () => {
  let fixture: Fixture
  let port: number
  let token: string
  beforeAll(async () => {
    fixture = await startFixture()
    port = fixture.server.port
    token = fixture.server.token
  })
  afterAll(() => fixture.dispose())

  it('prints a loopback address that carries a long random token', () => {
    expect(fixture.server.url).toBe(`http://127.0.0.1:${port}/?token=${token}`)
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('serves the page with ?token= and sets the token cookie', async () => {
    const answer = await http(port, `/?token=${token}`)
    expect(answer.status).toBe(200)
    expect(answer.body).toBe(INDEX_HTML)
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(answer.headers['set-cookie']).toEqual([
      `agent_teams_${port}=${token}; HttpOnly; SameSite=Strict; Path=/`,
    ])
  })

  it('serves files with the cookie alone, with their content types', async () => {
    const cookie = `other=1; agent_teams_${port}=${token}`
    const script = await http(port, '/app.js', { headers: { cookie } })
    expect(script.status).toBe(200)
    expect(script.body).toBe(APP_JS)
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(script.headers['set-cookie']).toBeUndefined()
    const style = await http(port, '/assets/style.css', { headers: { cookie } })
    expect(style.headers['content-type']).toBe('text/css; charset=utf-8')
    const head = await http(port, '/', { method: 'HEAD', headers: { cookie } })
    expect(head.status).toBe(200)
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(INDEX_HTML)))
    expect(head.body).toBe('')
  })

  it('lets the browser keep the content-named assets of the build, and nothing else', async () => {
    const cookie = `agent_teams_${port}=${token}`
    const asset = await http(port, '/assets/style.css', { headers: { cookie } })
    expect(asset.headers['cache-control']).toBe('private, max-age=31536000, immutable')
    for (const path of ['/', '/app.js']) {
      const answer = await http(port, path, { headers: { cookie } })
      expect(answer.status).toBe(200)
      expect(answer.headers['cache-control']).toBe('no-cache')
    }
    // A refusal is never kept, wherever it was asked.
    const refused = await http(port, '/assets/style.css')
    expect(refused.status).toBe(401)
    expect(refused.headers['cache-control']).toBe('no-store')
  })

  it('sends the security headers and no CORS headers, on every answer', async () => {
    for (const path of [`/?token=${token}`, '/', `/nothing?token=${token}`]) {
      const answer = await http(port, path, { headers: { origin: 'http://evil.example' } })
      expect(answer.headers['content-security-policy']).toBe(productionContentSecurityPolicy)
      expect(answer.headers['x-content-type-options']).toBe('nosniff')
      expect(answer.headers['referrer-policy']).toBe('no-referrer')
      expect(
        Object.keys(answer.headers).filter((name) => name.startsWith('access-control')),
      ).toEqual([])
    }
  })

  it('refuses a missing or wrong token with 401, whatever the cookie says', async () => {
    const missing = await http(port, '/')
    expect(missing.status).toBe(401)
    expect(missing.body).toContain('?token=')
    expect(missing.body).not.toContain(INDEX_HTML)
    expect((await http(port, `/?token=${token}x`)).status).toBe(401)
    expect((await http(port, '/?token=')).status).toBe(401)
    expect(
      (await http(port, '/', { headers: { cookie: `agent_teams_${port}=nope` } })).status,
    ).toBe(401)
    const wrongQueryGoodCookie = await http(port, '/?token=nope', {
      headers: { cookie: `agent_teams_${port}=${token}` },
    })
    expect(wrongQueryGoodCookie.status).toBe(401)
    expect(wrongQueryGoodCookie.headers['set-cookie']).toBeUndefined()
  })

  it('shows a page that looks like the app to a browser without the token', async () => {
    const page = await http(port, '/', { headers: { accept: 'text/html,application/xhtml+xml' } })
    expect(page.status).toBe(401)
    expect(page.headers['content-type']).toMatch(/^text\/html/)
    expect(page.body).toContain('agent-teams serve')
    expect(page.body).toContain('?token=')
    expect(page.body).not.toContain(INDEX_HTML)
    // Its own policy: its one inline style by hash, the icon as data:, nothing that runs.
    const policy = String(page.headers['content-security-policy'])
    expect(policy).toBe(TOKEN_PAGE_POLICY)
    expect(policy).toContain("default-src 'none'")
    expect(policy).not.toContain('script-src')
    const style = /<style>([\s\S]*)<\/style>/.exec(page.body)?.[1] ?? ''
    const hash = createHash('sha256').update(style).digest('base64')
    expect(policy).toContain(`'sha256-${hash}'`)
    // The same icon as the app's favicon.
    expect(readFileSync(join(root, 'src/renderer/public/favicon.svg'), 'utf8').trim()).toBe(ICON)
    expect(page.body).toContain(encodeURIComponent(ICON))
  })

  it('refuses a Host that is not this server (DNS rebinding) with 421', async () => {
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      'localhost',
    ]) {
      const answer = await http(port, `/?token=${token}`, { headers: { host } })
      expect(answer.status, host).toBe(421)
      expect(answer.body).not.toContain(INDEX_HTML)
    }
    expect(
      (await http(port, `/?token=${token}`, { headers: { host: `localhost:${port}` } })).status,
    ).toBe(200)
  })

  it('refuses path traversal, plain, encoded and through a link', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E%2Fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/%00index.html',
      '/%E0%A4%A',
      '/link.txt',
    ]) {
      const answer = await http(port, `${path}?token=${token}`)
      expect(answer.status, path).toBe(400)
      expect(answer.body).not.toContain(SECRET)
    }
    expect((await http(port, `/absent.js?token=${token}`)).status).toBe(404)
    expect((await http(port, `/assets/?token=${token}`)).status).toBe(404)
    expect((await http(port, `/assets?token=${token}`)).status).toBe(404)
  })

  it('answers only GET and HEAD: POST from its own page is 405', async () => {
    const answer = await http(port, `/?token=${token}`, {
      method: 'POST',
      headers: { origin: fixture.origin },
    })
    expect(answer.status).toBe(405)
    expect(answer.headers.allow).toBe('GET, HEAD')
  })

  it('refuses any request that is not GET or HEAD from another origin, or none, with 403', async () => {
    const cookie = `agent_teams_${port}=${token}`
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'])
      for (const origin of [
        'http://evil.example',
        `http://127.0.0.1:${port + 1}`,
        'null',
        undefined,
      ]) {
        const headers: Record<string, string> = { cookie, ...(origin ? { origin } : {}) }
        const answer = await http(port, `/?token=${token}`, { method, headers })
        expect(answer.status, `${method} ${origin}`).toBe(403)
        expect(answer.body).toContain("accepted only from this app's own page")
        expect(answer.headers['set-cookie']).toBeUndefined()
      }
    // GET and HEAD still work without an Origin (a typed address sends none).
    expect((await http(port, '/', { headers: { cookie } })).status).toBe(200)
  })

  it('names the cookie by its port: a cookie of another server (or the old name) is not ours', async () => {
    const other = `agent_teams_${port + 1}=${token}`
    expect((await http(port, '/', { headers: { cookie: other } })).status).toBe(401)
    expect(
      (await http(port, '/', { headers: { cookie: `agent_teams_token=${token}` } })).status,
    ).toBe(401)
  })
})
