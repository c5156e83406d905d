#!/usr/bin/env node
// Compares the screenshots of an end-to-end run with a baseline taken before a change, pixel by
// pixel, to show that a change meant to leave the window as it was did so.
//
//   node scripts/compare-screenshots.mjs <baseline folder> [screenshots folder]
//
// The screenshots folder is test-results/screenshots by default (where the specs write them).
// Every image is compared with the one of the same name; for each that differs, an image with
// the differing pixels in red is written to test-results/screenshot-diffs/. It prints one line
// an image and exits with 1 when any differs, is missing or has a new name.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import pixelmatch from 'pixelmatch'
import { PNG } from 'pngjs'

// pixelmatch's default: a pixel differs when its colour is perceptibly other, so that the same
// drawing encoded twice compares equal while a moved border or changed colour does not.
const THRESHOLD = 0.1

function pngsIn(folder) {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.png'))
    .sort()
}

/** How two images differ: 'same', 'size' or the count of differing pixels (diff drawn). */
function compare(baselinePath, currentPath, diffPath) {
  const baseline = PNG.sync.read(readFileSync(baselinePath))
  const current = PNG.sync.read(readFileSync(currentPath))
  if (baseline.width !== current.width || baseline.height !== current.height) {
    return {
      kind: 'size',
      detail: `${baseline.width}x${baseline.height} -> ${current.width}x${current.height}`,
    }
  }
  const diff = new PNG({ width: baseline.width, height: baseline.height })
  const pixels = pixelmatch(
    baseline.data,
    current.data,
    diff.data,
    baseline.width,
    baseline.height,
    {
      threshold: THRESHOLD,
    },
  )
  if (pixels === 0) return { kind: 'same' }
  writeFileSync(diffPath, PNG.sync.write(diff))
  const share = (pixels / (baseline.width * baseline.height)) * 100
  return { kind: 'pixels', detail: `${pixels} pixels (${share.toFixed(3)} %)` }
}

function main() {
  const [baselineArgument, currentArgument = 'test-results/screenshots'] = process.argv.slice(2)
  if (baselineArgument === undefined) {
    console.error(
      'Usage: node scripts/compare-screenshots.mjs <baseline folder> [screenshots folder]',
    )
    return 2
  }
  const baselineFolder = resolve(baselineArgument)
  const currentFolder = resolve(currentArgument)
  for (const folder of [baselineFolder, currentFolder]) {
    if (!existsSync(folder)) {
      console.error(`No such folder: ${folder}`)
      return 2
    }
  }
  const diffFolder = resolve('test-results/screenshot-diffs')
  rmSync(diffFolder, { recursive: true, force: true })
  mkdirSync(diffFolder, { recursive: true })

  const baselineNames = pngsIn(baselineFolder)
  const currentNames = new Set(pngsIn(currentFolder))
  let differing = 0
  for (const name of baselineNames) {
    if (!currentNames.has(name)) {
      console.log(`missing  ${name}`)
      differing++
      continue
    }
    const outcome = compare(
      join(baselineFolder, name),
      join(currentFolder, name),
      join(diffFolder, name),
    )
    if (outcome.kind !== 'same') differing++
    console.log(
      `${outcome.kind === 'same' ? 'same    ' : 'DIFFERS '} ${name}${outcome.detail ? `  ${outcome.detail}` : ''}`,
    )
  }
  const baselineSet = new Set(baselineNames)
  for (const name of currentNames) {
    if (baselineSet.has(name)) continue
    console.log(`new      ${name}`)
    differing++
  }
  console.log(
    `${baselineNames.length} in the baseline, ${currentNames.size} now; ${differing} differ` +
      (differing > 0 ? ` (diff images in ${diffFolder})` : ''),
  )
  return differing === 0 ? 0 : 1
}

process.exitCode = main()
