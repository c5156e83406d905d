import { existsSync, renameSync, rmSync } from 'node:fs'
import type { Disposable } from '../shared/disposable'

/** The levels main's console writes that must reach the log file. */
export const ROUTED_LEVELS = ['error', 'warn', 'info', 'log'] as const
type Level = (typeof ROUTED_LEVELS)[number]
export type LevelWriter = Record<Level, (...parts: unknown[]) => void>

/**
 * Sends main's console.error/warn/info/log to the logger (which writes the file and, itself,
 * the terminal), so that every existing `console.warn('[ipc] …')` lands in the log file a
 * person can send with a bug report. Disposing of the route puts the console back.
 */
export function routeConsole(target: LevelWriter, logger: LevelWriter): Disposable {
  const original = { ...target }
  for (const level of ROUTED_LEVELS) target[level] = (...parts) => logger[level](...parts)
  return { dispose: () => Object.assign(target, original) }
}

/** How many old log files are kept beside the current one (main.1.log is the newest). */
export const KEPT_LOG_FILES = 3

/** main.log → main.1.log, main.log.3 style names are harder to open by double-click. */
export function archivedName(path: string, index: number): string {
  return path.replace(/(\.log)?$/, `.${index}.log`)
}

/**
 * Rotation for electron-log's file transport (its default keeps one old file): the full file
 * becomes main.1.log, older ones shift up, and the oldest beyond `keep` is removed. electron-log
 * calls this synchronously before it starts a new file.
 */
export function rotateLogFile(path: string, keep = KEPT_LOG_FILES): void {
  const oldest = archivedName(path, keep)
  if (existsSync(oldest)) rmSync(oldest, { force: true })
  for (let index = keep - 1; index >= 1; index--) {
    const from = archivedName(path, index)
    if (existsSync(from)) renameSync(from, archivedName(path, index + 1))
  }
  if (existsSync(path)) renameSync(path, archivedName(path, 1))
}

export interface AboutFacts {
  readonly name: string
  readonly version: string
  readonly electron: string
  readonly chrome: string
  readonly node: string
  readonly logFile: string
}

/** The About box's text: versions to quote in a bug report, and where the log is. */
export function aboutDetail(facts: AboutFacts): string {
  return [
    `Version ${facts.version}`,
    `Electron ${facts.electron} · Chromium ${facts.chrome} · Node ${facts.node}`,
    '',
    `Log file: ${facts.logFile}`,
  ].join('\n')
}
