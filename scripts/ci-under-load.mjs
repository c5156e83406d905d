#!/usr/bin/env node
// CI on a busy machine: runs the test command of .ci/run (`npm test`) several times in a row
// while CPU-bound processes compete for the cores, and prints each run's closing line. A test
// that waits on timing instead of state fails here long before it fails in CI once a month.
//
//   node scripts/ci-under-load.mjs                 npm test, 3 runs, 2 hogs (over an hour)
//   node scripts/ci-under-load.mjs --runs 1 --hogs 4
//   node scripts/ci-under-load.mjs -- npx vitest run tests/unit/runtime tests/security
//
// Each run's whole output goes to test-results/ci-under-load/run-<n>.log. The hogs end with
// this script, whatever ends it: on its way out it kills them, and each hog also quits by itself
// once its parent is gone (a SIGKILL leaves no handler to run).
import { spawn } from 'node:child_process'
import { createWriteStream, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const LOG_FOLDER = join('test-results', 'ci-under-load')

/**
 * A busy loop that checks, every ~10^8 turns, that it is still the child of the pid it was given
 * (given, not read at its start: the parent may be gone by then).
 */
const HOG_SOURCE = `
const parent = Number(process.argv[1])
for (let turn = 1; ; turn++) if (turn % 1e8 === 0 && process.ppid !== parent) process.exit(0)
`

export function parseArguments(argv) {
  const options = { runs: 3, hogs: 2, command: ['npm', 'test'] }
  const split = argv.indexOf('--')
  const own = split === -1 ? argv : argv.slice(0, split)
  if (split !== -1) {
    const command = argv.slice(split + 1)
    if (command.length === 0) throw new Error('nothing after --: give the test command')
    options.command = command
  }
  for (let index = 0; index < own.length; index++) {
    const name = own[index]
    if (name !== '--runs' && name !== '--hogs') throw new Error(`unknown option ${name}`)
    const value = Number(own[++index])
    if (!Number.isInteger(value) || value < (name === '--runs' ? 1 : 0))
      throw new Error(`${name} takes a whole number, not ${own[index] ?? 'nothing'}`)
    options[name.slice(2)] = value
  }
  return options
}

// eslint-disable-next-line no-control-regex
const stripColors = (text) => text.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')

/**
 * The line that says how a run went: npm test's `N passed, N failed`, else the last line that
 * counts passed or failed tests (vitest's own summary), else the last line.
 */
export function closingLine(output) {
  const lines = stripColors(output)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
  return (
    lines.findLast((line) => /^\d+ passed, \d+ failed/.test(line)) ??
    lines.findLast((line) => /\b\d+ (passed|failed)\b/.test(line)) ??
    lines.at(-1) ??
    '(no output)'
  )
}

function startHogs(count) {
  const hogs = []
  for (let index = 0; index < count; index++)
    hogs.push(spawn(process.execPath, ['-e', HOG_SOURCE, String(process.pid)], { stdio: 'ignore' }))
  return hogs
}

/** Test runs, each the leader of its own process group. */
const groupLeaders = new WeakSet()

function stopAll(processes) {
  for (const child of processes) {
    if (child.exitCode !== null || child.signalCode !== null) continue
    try {
      // A run is a whole process group (npm, vitest's workers, the browsers): end all of it.
      if (groupLeaders.has(child)) process.kill(-child.pid, 'SIGKILL')
      else child.kill('SIGKILL')
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Runs the command once, its output to `logPath`; resolves with its exit and closing line. */
function runOnce(command, logPath, live) {
  return new Promise((resolve) => {
    const log = createWriteStream(logPath)
    let tail = ''
    const child = spawn(command[0], command.slice(1), {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, FORCE_COLOR: '0' },
    })
    groupLeaders.add(child)
    live.add(child)
    const take = (chunk) => {
      log.write(chunk)
      // Enough of the end to find the closing line in.
      tail = (tail + chunk.toString()).slice(-64 * 1024)
    }
    child.stdout.on('data', take)
    child.stderr.on('data', take)
    const finish = (code, signal, error) => {
      live.delete(child)
      log.end()
      resolve({
        code,
        signal,
        line: error ? `could not start ${command[0]}: ${error.message}` : closingLine(tail),
      })
    }
    child.once('error', (error) => finish(null, null, error))
    child.once('close', (code, signal) => finish(code, signal, null))
  })
}

function duration(milliseconds) {
  const seconds = Math.round(milliseconds / 1000)
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`
}

async function main() {
  const options = parseArguments(process.argv.slice(2))
  mkdirSync(LOG_FOLDER, { recursive: true })
  const hogs = startHogs(options.hogs)
  const live = new Set(hogs)
  const endAll = () => stopAll(live)
  process.on('exit', endAll)
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
    process.on(signal, () => {
      console.log(`\n${signal}: stopping the run and the hogs`)
      endAll()
      process.exit(130)
    })
  console.log(
    `ci-under-load: ${options.runs} run(s) of \`${options.command.join(' ')}\` against ${options.hogs} CPU hog(s) (pids ${hogs.map((hog) => hog.pid).join(', ') || 'none'})`,
  )
  const results = []
  try {
    for (let run = 1; run <= options.runs; run++) {
      const logPath = join(LOG_FOLDER, `run-${run}.log`)
      const started = Date.now()
      const result = await runOnce(options.command, logPath, live)
      const how = result.signal ? `killed by ${result.signal}` : `exit ${result.code}`
      console.log(
        `run ${run}/${options.runs}: ${result.line} (${how}, ${duration(Date.now() - started)}; ${logPath})`,
      )
      results.push(result)
    }
  } finally {
    endAll()
  }
  const failed = results.filter((result) => result.code !== 0).length
  console.log(`${results.length - failed} of ${results.length} runs passed under load`)
  process.exitCode = failed > 0 ? 1 : 0
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(`ci-under-load: ${error.message}`)
    process.exitCode = 2
  })
}
