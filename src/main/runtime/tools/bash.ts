import { spawn } from 'node:child_process'
import { posix } from 'node:path'
import { StringDecoder } from 'node:string_decoder'
import { TeamError } from '../../../shared/errors'
import { killProcessTree } from './shell'

export const DEFAULT_BASH_TIMEOUT_MS = 120_000
export const DEFAULT_MAX_OUTPUT_CHARACTERS = 50_000
/** How long the output pipes may stay open after bash itself has exited. */
const DRAIN_AFTER_EXIT_MS = 200

export interface BashOptions {
  readonly cwd: string
  readonly timeoutMs?: number
  readonly maxOutputCharacters?: number
  readonly signal?: AbortSignal
  readonly env?: NodeJS.ProcessEnv
  /** The bash to run (Git for Windows' bash.exe there, see shell.ts); `/bin/bash` otherwise. */
  readonly shell?: string
}

export interface BashResult {
  /** stdout and stderr in arrival order, capped, with a note when something was dropped. */
  readonly output: string
  readonly exitCode: number | null
  readonly signal: string | null
  readonly timedOut: boolean
  readonly aborted: boolean
  readonly truncated: boolean
}

/**
 * Runs `command` with `/bin/bash -c` in its own process group, so that a timeout or an abort can
 * kill everything it started (pipelines, `sleep 100 &`), not just bash. When bash exits, whatever
 * it left running in its group is killed too: a background process that outlives its tool call
 * has no owner, and one holding the output pipe open would otherwise keep the call from ending.
 */
export function runBash(command: string, options: BashOptions): Promise<BashResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS
  const output = new CappedOutput(options.maxOutputCharacters ?? DEFAULT_MAX_OUTPUT_CHARACTERS)
  if (options.signal?.aborted) return Promise.resolve(output.result(null, null, false, true))

  return new Promise((resolveRun, rejectRun) => {
    const child = spawn(options.shell ?? '/bin/bash', ['-c', command], {
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: true,
      // Windows: no console window flashing up for each command.
      windowsHide: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let timedOut = false
    let aborted = false
    let openStreams = 2
    let exit: { code: number | null; signal: string | null } | null = null
    let drainTimer: NodeJS.Timeout | undefined
    let finished = false

    const killGroup = (): void => {
      if (child.pid !== undefined) killProcessTree(child.pid)
    }
    const finish = (): void => {
      if (finished) return
      finished = true
      clearTimeout(timeoutTimer)
      clearTimeout(drainTimer)
      options.signal?.removeEventListener('abort', onAbort)
      killGroup()
      child.stdout.destroy()
      child.stderr.destroy()
      const { code, signal } = exit ?? { code: null, signal: null }
      resolveRun(output.result(code, signal, timedOut, aborted))
    }
    const onAbort = (): void => {
      aborted = true
      killGroup()
    }
    const timeoutTimer = setTimeout(() => {
      timedOut = true
      killGroup()
    }, timeoutMs)
    options.signal?.addEventListener('abort', onAbort, { once: true })

    for (const stream of [child.stdout, child.stderr]) {
      const decoder = new StringDecoder('utf8')
      stream.on('data', (chunk: Buffer) => output.append(decoder.write(chunk)))
      stream.once('close', () => {
        output.append(decoder.end())
        openStreams -= 1
        if (openStreams === 0 && exit !== null) finish()
      })
    }
    child.once('exit', (code, signal) => {
      exit = { code, signal }
      if (openStreams === 0) finish()
      else drainTimer = setTimeout(finish, DRAIN_AFTER_EXIT_MS)
    })
    child.once('error', (error) => {
      clearTimeout(timeoutTimer)
      options.signal?.removeEventListener('abort', onAbort)
      rejectRun(
        new TeamError('io', `bash could not be started in ${options.cwd}: ${error.message}`),
      )
    })
  })
}

/** Keeps the first `limit` characters and only counts the rest, so memory stays bounded. */
class CappedOutput {
  private kept = ''
  private dropped = 0
  constructor(private readonly limit: number) {}

  append(text: string): void {
    const room = this.limit - this.kept.length
    if (text.length <= room) {
      this.kept += text
      return
    }
    let cut = Math.max(room, 0)
    // Never split a surrogate pair: half an emoji is not valid text.
    if (cut > 0 && /[\uD800-\uDBFF]/.test(text.charAt(cut - 1))) cut -= 1
    this.kept += text.slice(0, cut)
    this.dropped += text.length - cut
  }

  result(
    exitCode: number | null,
    signal: string | null,
    timedOut: boolean,
    aborted: boolean,
  ): BashResult {
    const truncated = this.dropped > 0
    const note = `\n[output truncated: ${this.dropped} characters dropped]`
    const output = truncated ? this.kept + note : this.kept
    return { output, exitCode, signal, timedOut, aborted, truncated }
  }
}

/**
 * Why `command` is refused before it runs, or null. This blocklist is a speed bump against a
 * model's plainly destructive slip (`rm -rf /`, `mkfs`, `sudo`), not a security boundary: any
 * shell can spell the same thing a hundred other ways (`eval`, `find -delete`, a script file).
 * The real boundary is the OS: the workspace folder, the user account, a container.
 */
export function refusedCommandReason(command: string): string | null {
  if (/([A-Za-z_:][\w:]*)\(\)\{\1\|\1&\};\1/.test(command.replace(/\s+/g, ''))) {
    return 'it is a fork bomb'
  }
  for (const words of simpleCommands(command)) {
    const reason = refusedWordsReason(withoutPrefixes(words))
    if (reason !== null) return reason
  }
  return null
}

const SHELLS = new Set(['bash', 'sh', 'dash', 'zsh', 'ksh'])
const POWER_COMMANDS = new Set(['shutdown', 'reboot', 'poweroff', 'halt'])
const PREFIX_COMMANDS = new Set(['command', 'builtin', 'exec', 'nohup', 'time', 'nice', 'env'])
const DISK_DEVICE = /^of=\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|mapper\/)/

function refusedWordsReason(words: readonly string[]): string | null {
  const [first, ...args] = words
  if (first === undefined) return null
  const name = posix.basename(first)
  if (name === 'sudo' || name === 'doas') {
    return `${name} is not available: agents run with the app's own rights`
  }
  if (POWER_COMMANDS.has(name)) return 'it shuts down or restarts the machine'
  if (name === 'mkfs' || name.startsWith('mkfs.')) return 'it formats a disk'
  if (name === 'dd' && args.some((arg) => DISK_DEVICE.test(arg))) {
    return 'it writes straight onto a disk device'
  }
  if (name === 'rm') return refusedRemovalReason(args)
  if (SHELLS.has(name)) {
    // `bash -c "rm -rf /"`: judge the inner script too.
    const scriptIndex = args.findIndex((arg) => /^-[A-Za-z]*c[A-Za-z]*$/.test(arg)) + 1
    const script = scriptIndex > 0 ? args[scriptIndex] : undefined
    if (script !== undefined) return refusedCommandReason(script)
  }
  return null
}

/** Drops `FOO=bar` assignments and wrappers such as `env`, `nohup`, `exec` before the command. */
function withoutPrefixes(words: readonly string[]): readonly string[] {
  let index = 0
  while (index < words.length) {
    const word = words[index] ?? ''
    const isAssignment = /^[A-Za-z_]\w*=/.test(word)
    const isWrapperOption = index > 0 && word.startsWith('-')
    if (!isAssignment && !isWrapperOption && !PREFIX_COMMANDS.has(word)) break
    index += 1
  }
  return words.slice(index)
}

/** `rm` with GNU's option syntax: combined short flags (`-rf`), long flags and their prefixes. */
function refusedRemovalReason(args: readonly string[]): string | null {
  let recursive = false
  let noPreserveRoot = false
  const operands: string[] = []
  let optionsEnded = false
  for (const arg of args) {
    if (optionsEnded || !arg.startsWith('-') || arg === '-') operands.push(arg)
    else if (arg === '--') optionsEnded = true
    else if (arg.startsWith('--')) {
      // getopt accepts any unambiguous prefix: `--recur` is `--recursive`.
      const option = arg.slice(2).split('=')[0] ?? ''
      if (option !== '' && 'recursive'.startsWith(option)) recursive = true
      if (option !== '' && 'no-preserve-root'.startsWith(option)) noPreserveRoot = true
    } else if (/[rR]/.test(arg.slice(1))) recursive = true
  }
  if (noPreserveRoot) return 'rm --no-preserve-root exists only to delete the whole file system'
  const target = operands.find(isProtectedTarget)
  if (recursive && target !== undefined) {
    return `rm -r ${target} would delete the root, home or a system folder`
  }
  return null
}

const HOME_FORMS = new Set(['~', '$HOME', '${HOME}'])
const SYSTEM_FOLDER =
  /^\/(bin|boot|dev|etc|home|lib|lib32|lib64|opt|proc|root|run|sbin|srv|sys|usr|var)$/

function isProtectedTarget(operand: string): boolean {
  let target = operand.startsWith('/') ? posix.normalize(operand) : operand
  // `/`, `/*`, `~/`, `$HOME/*` and `/usr/.` all name the folder itself or all it holds.
  for (let previous = ''; previous !== target;) {
    previous = target
    target = target.replace(/\/(\*|\.)?$/, '')
  }
  return target === '' || HOME_FORMS.has(target) || SYSTEM_FOLDER.test(target)
}

interface LexerFrame {
  words: string[]
  word: string | null
  inDoubleQuotes: boolean
  closer: ')' | '`' | null
}

/**
 * Splits a script into simple commands (lists of words with quotes removed) at `;`, `&`, `|`,
 * newlines and brackets. Command substitutions (`$(…)`, backticks) run even inside double
 * quotes, so their contents are commands of their own. Good enough for a blocklist, not a parser.
 */
function simpleCommands(script: string): string[][] {
  const commands: string[][] = []
  const outer: LexerFrame[] = []
  let frame: LexerFrame = { words: [], word: null, inDoubleQuotes: false, closer: null }
  const append = (text: string): void => void (frame.word = (frame.word ?? '') + text)
  const endWord = (): void => {
    if (frame.word !== null) frame.words.push(frame.word)
    frame.word = null
  }
  const endCommand = (): void => {
    endWord()
    if (frame.words.length > 0) commands.push(frame.words)
    frame.words = []
  }
  const open = (closer: ')' | '`'): void => {
    outer.push(frame)
    frame = { words: [], word: null, inDoubleQuotes: false, closer }
  }
  const close = (): void => {
    endCommand()
    frame = outer.pop() ?? frame
    append('$()')
  }
  for (let index = 0; index < script.length; index++) {
    const character = script.charAt(index)
    const next = script.charAt(index + 1)
    if (character === '\\') {
      append(next)
      index += 1
    } else if (character === '`') {
      if (frame.closer === '`') close()
      else open('`')
    } else if (character === '$' && next === '(') {
      open(')')
      index += 1
    } else if (character === '$' && next === '{') {
      const end = script.indexOf('}', index)
      const stop = end === -1 ? script.length : end + 1
      append(script.slice(index, stop))
      index = stop - 1
    } else if (frame.inDoubleQuotes) {
      if (character === '"') frame.inDoubleQuotes = false
      else append(character)
    } else if (character === '"') {
      frame.inDoubleQuotes = true
      append('')
    } else if (character === "'") {
      const end = script.indexOf("'", index + 1)
      const stop = end === -1 ? script.length : end
      append(script.slice(index + 1, stop))
      index = stop
    } else if (character === ')' && frame.closer === ')') close()
    else if (character === '\n' || ';&|(){}'.includes(character)) endCommand()
    else if (/\s/.test(character)) endWord()
    else append(character)
  }
  while (outer.length > 0) close()
  endCommand()
  return commands
}
