import { describe, expect, it } from 'vitest'
import { devServerLocation, fileLocation, isAppUrl } from '../../../src/main/app-location'

describe('which pages are the app itself', () => {
  const file = fileLocation('/opt/agent-teams/out/renderer/index.html')

  it('trusts exactly the built index.html, whatever the query or fragment', () => {
    expect(isAppUrl(file, 'file:///opt/agent-teams/out/renderer/index.html')).toBe(true)
    expect(isAppUrl(file, 'file:///opt/agent-teams/out/renderer/index.html?x=1#inbox')).toBe(true)
  })

  it('refuses other files, other schemes and garbage', () => {
    expect(isAppUrl(file, 'file:///opt/agent-teams/out/renderer/other.html')).toBe(false)
    expect(isAppUrl(file, 'file:///tmp/index.html')).toBe(false)
    expect(isAppUrl(file, 'https://example.com/opt/agent-teams/out/renderer/index.html')).toBe(
      false,
    )
    expect(isAppUrl(file, 'not a url')).toBe(false)
    expect(isAppUrl(file, '')).toBe(false)
  })

  it('trusts the dev server by origin only', () => {
    const dev = devServerLocation('http://localhost:5173/')
    expect(isAppUrl(dev, 'http://localhost:5173/index.html')).toBe(true)
    expect(isAppUrl(dev, 'http://localhost:5174/')).toBe(false)
    expect(isAppUrl(dev, 'http://127.0.0.1:5173/')).toBe(false)
    expect(isAppUrl(dev, 'https://localhost:5173/')).toBe(false)
  })
})
