import { posix } from 'node:path'

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
const DISK_DEVICE = /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|md|dm-|mapper\/)/

interface Wrapper {
  /** Options whose value is the next word (`nice -n 10`, `exec -a name`). */
  readonly valued?: readonly string[]
  /** Operands before the command (`timeout 5 cmd`: the duration). */
  readonly operands?: number
  /** Options whose value is itself a command line (`env -S 'cmd args'`). */
  readonly split?: readonly string[]
}

/** Commands that run the rest of their words as a command, and how their options are spelled. */
const WRAPPERS: ReadonlyMap<string, Wrapper> = new Map<string, Wrapper>([
  ['command', {}],
  ['builtin', {}],
  ['exec', { valued: ['-a'] }],
  ['nohup', {}],
  ['setsid', {}],
  ['time', { valued: ['-f', '-o', '--format', '--output'] }],
  ['nice', { valued: ['-n', '--adjustment'] }],
  ['ionice', { valued: ['-c', '-n', '--class', '--classdata'] }],
  ['stdbuf', { valued: ['-i', '-o', '-e', '--input', '--output', '--error'] }],
  ['timeout', { valued: ['-s', '-k', '--signal', '--kill-after'], operands: 1 }],
  ['env', { valued: ['-u', '-C', '--unset', '--chdir'], split: ['-S', '--split-string'] }],
])

function refusedWordsReason(words: readonly string[]): string | null {
  const [first, ...args] = words
  if (first === undefined) return null
  const name = posix.basename(first)
  if (name === 'sudo' || name === 'doas') {
    return `${name} is not available: agents run with the app's own rights`
  }
  if (POWER_COMMANDS.has(name)) return 'it shuts down or restarts the machine'
  if (name === 'mkfs' || name.startsWith('mkfs.')) return 'it formats a disk'
  if (name === 'dd' && args.some(writesToDisk)) return 'it writes straight onto a disk device'
  if (name === 'rm') return refusedRemovalReason(args)
  if (SHELLS.has(name)) {
    // `bash -c "rm -rf /"`: judge the inner script too.
    const script = shellScript(args)
    if (script !== undefined) return refusedCommandReason(script)
  }
  return null
}

/** `of=/dev/sda`, also spelled `of=//dev/sda` or `of=/dev/../dev/sda`. */
function writesToDisk(arg: string): boolean {
  return arg.startsWith('of=/') && DISK_DEVICE.test(posix.normalize(arg.slice(3)))
}

/**
 * The script of `bash [options] -c [options] [--] script`: -c only says that the first operand
 * is the script, whatever options come between; -o and -O take a value.
 */
function shellScript(args: readonly string[]): string | undefined {
  let runsString = false
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? ''
    if (arg === '--') return runsString ? args[index + 1] : undefined
    if (/^[-+]./.test(arg)) {
      if (arg.startsWith('--')) {
        if (arg === '--rcfile' || arg === '--init-file') index += 1
      } else {
        if (arg.startsWith('-') && arg.slice(1).includes('c')) runsString = true
        if (/[oO]$/.test(arg)) index += 1
      }
      continue
    }
    return runsString ? arg : undefined
  }
  return undefined
}

/**
 * Drops `FOO=bar` assignments and wrappers such as `env`, `nice -n 10`, `exec -a x` and
 * `timeout 5` before the command, however many are stacked.
 */
function withoutPrefixes(words: readonly string[]): readonly string[] {
  let rest = words
  for (;;) {
    let index = 0
    while (index < rest.length && /^[A-Za-z_]\w*=/.test(rest[index] ?? '')) index += 1
    rest = rest.slice(index)
    const wrapper = WRAPPERS.get(posix.basename(rest[0] ?? ''))
    if (wrapper === undefined) return rest
    rest = afterWrapper(rest.slice(1), wrapper)
  }
}

/** The words after a wrapper's own options and operands: the command it runs. */
function afterWrapper(args: readonly string[], wrapper: Wrapper): readonly string[] {
  let index = 0
  while (index < args.length) {
    const arg = args[index] ?? ''
    if (arg === '--') {
      index += 1
      break
    }
    if (!arg.startsWith('-')) break
    if (wrapper.split?.includes(arg)) {
      const line = (args[index + 1] ?? '').split(/\s+/).filter((word) => word !== '')
      return [...line, ...args.slice(index + 2)]
    }
    index += wrapper.valued?.includes(arg) ? 2 : 1
  }
  return args.slice(index + (wrapper.operands ?? 0))
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
