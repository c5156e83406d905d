#!/usr/bin/env node
// The one test command (`npm test`): type-check, lint and format-check, then every test suite.
// Each step runs even when an earlier one failed, so one run shows every problem; the closing
// line counts the tests (and the static checks) as `N passed, N failed`.
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { playwrightCommand } from './playwright-command.mjs'

const results = { passed: 0, failed: 0, skipped: 0 }
const failures = []

function run(title, command, args) {
  console.log(`\n=== ${title}: ${command} ${args.join(' ')}`)
  const { status, error } = spawnSync(command, args, {
    stdio: 'inherit',
    env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '0' },
  })
  if (error) console.error(error.message)
  return status === 0
}

function check(title, command, args) {
  if (run(title, command, args)) results.passed++
  else {
    results.failed++
    failures.push(title)
  }
}

check('type-check (node)', 'npx', ['tsc', '-p', 'tsconfig.node.json', '--noEmit'])
check('type-check (web)', 'npx', ['tsc', '-p', 'tsconfig.web.json', '--noEmit'])
check('lint', 'npx', ['eslint', '--max-warnings', '0', '.'])
check('format', 'npx', ['prettier', '--check', '.'])
// No import cycles: each module's dependencies form a tree, so any one can be loaded and
// tested alone (and an esbuild bundle never meets a half-initialized module).
check('import cycles', 'npx', [
  'dpdm',
  '--no-warning',
  '--no-tree',
  '--transform',
  '--exit-code',
  'circular:1',
  'src/**/*.ts',
  'src/**/*.tsx',
])

// The app is built first: the serve tests and the end-to-end suite run the built UI, and the
// tests that run bin/agent-teams.mjs run the built CLI (out/cli), as an install does.
const built =
  run('build (electron-vite)', 'npx', ['electron-vite', 'build']) &&
  run('build (CLI)', process.execPath, ['scripts/build-cli.mjs'])
if (!built) {
  results.failed++
  failures.push('build')
}

mkdirSync('test-results', { recursive: true })
const vitestReport = 'test-results/vitest.json'
rmSync(vitestReport, { force: true })
const vitestOk = run('unit, stress and security tests (vitest)', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
])
try {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'))
  results.passed += report.numPassedTests
  results.failed += report.numFailedTests
  results.skipped += report.numPendingTests + report.numTodoTests
  // A suite that failed to load has no failed test, but it failed.
  const brokenFiles = report.testResults.filter(
    (file) =>
      file.status === 'failed' && file.assertionResults.every((test) => test.status !== 'failed'),
  )
  results.failed += brokenFiles.length
  // Vitest also fails a run whose tests all passed when an error escaped them: count it.
  if (!vitestOk && report.numFailedTests === 0 && brokenFiles.length === 0) results.failed++
  if (!vitestOk || report.numFailedTests > 0 || brokenFiles.length > 0) failures.push('vitest')
} catch (error) {
  results.failed++
  failures.push(`vitest (no report: ${error.message})`)
}

// End to end: the built app in browser mode, driven by Playwright in Debian's Chromium, and in
// Electron where its binary is installed.
if (built) {
  const playwrightReport = 'test-results/playwright.json'
  rmSync(playwrightReport, { force: true })
  // Under xvfb-run where the Electron spec will open a window (see playwright-command.mjs).
  const playwright = playwrightCommand()
  const playwrightOk = run('end-to-end tests (Playwright)', playwright.command, playwright.args)
  try {
    const stats = JSON.parse(readFileSync(playwrightReport, 'utf8')).stats
    results.passed += stats.expected + (stats.flaky ?? 0)
    results.failed += stats.unexpected
    results.skipped += stats.skipped
    if (!playwrightOk || stats.unexpected > 0) failures.push('playwright')
  } catch (error) {
    results.failed++
    failures.push(`playwright (no report: ${error.message})`)
  }
}

console.log(failures.length > 0 ? `\nFailed: ${failures.join(', ')}` : '\nEverything passed.')
console.log(
  `${results.passed} passed, ${results.failed} failed${results.skipped > 0 ? `, ${results.skipped} skipped` : ''}`,
)
process.exitCode = results.failed > 0 || failures.length > 0 ? 1 : 0
