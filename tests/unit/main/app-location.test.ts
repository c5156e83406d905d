import { describe, expect, it } from 'vitest'
import { appProtocolLocation, devServerLocation, isAppUrl } from '../../../src/main/app-location'

describe('which pages are the app itself', () => {
  const app = appProtocolLocation()

  it('loads the built page from app://agent-teams/index.html', () => {
    expect(app).toEqual({ kind: 'app-protocol', url: 'app://agent-teams/index.html' })
  })

  it("trusts the app protocol's origin, whatever the path, query or fragment", () => {
    expect(isAppUrl(app, 'app://agent-teams/index.html')).toBe(true)
    expect(isAppUrl(app, 'app://agent-teams/index.html?x=1#inbox')).toBe(true)
    expect(isAppUrl(app, 'app://agent-teams/')).toBe(true)
  })

  it('refuses other hosts, ports, schemes, file: pages and garbage', () => {
    expect(isAppUrl(app, 'app://other/index.html')).toBe(false)
    expect(isAppUrl(app, 'app://agent-teams.evil.example/index.html')).toBe(false)
    expect(isAppUrl(app, 'app://agent-teams:8080/index.html')).toBe(false)
    expect(isAppUrl(app, 'https://agent-teams/index.html')).toBe(false)
    expect(isAppUrl(app, 'file:///opt/agent-teams/out/renderer/index.html')).toBe(false)
    expect(isAppUrl(app, 'not a url')).toBe(false)
    expect(isAppUrl(app, '')).toBe(false)
  })

  it('trusts the dev server by origin only', () => {
    const dev = devServerLocation('http://localhost:5173/')
    expect(isAppUrl(dev, 'http://localhost:5173/index.html')).toBe(true)
    expect(isAppUrl(dev, 'http://localhost:5174/')).toBe(false)
    expect(isAppUrl(dev, 'http://127.0.0.1:5173/')).toBe(false)
    expect(isAppUrl(dev, 'https://localhost:5173/')).toBe(false)
    expect(isAppUrl(dev, 'app://agent-teams/index.html')).toBe(false)
  })
})
