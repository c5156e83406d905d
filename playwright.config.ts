import { defineConfig } from '@playwright/test'

/** Chromium flags that keep the browser off the network: only 127.0.0.1 and localhost resolve. */
const offlineChromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--no-default-browser-check',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost',
]

export default defineConfig({
  testDir: 'tests/e2e',
  // Not test-results itself: Playwright empties its output folder, and other reports live there.
  outputDir: 'test-results/playwright-artifacts',
  timeout: 60_000,
  workers: 1,
  fullyParallel: false,
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    launchOptions: { executablePath: '/usr/bin/chromium', args: offlineChromiumFlags },
    trace: 'retain-on-failure',
  },
})
