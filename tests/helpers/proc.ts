import { readFileSync, readdirSync } from 'node:fs'

/**
 * The host pid of a process one of whose arguments is exactly `marker` (Linux /proc), or null.
 * Bash may run in a PID namespace of its own, where `$!` is a pid inside it, so the processes it
 * starts are found by their command line.
 */
export function findProcess(marker: string): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker))
        return Number(entry)
    } catch {
      // Gone meanwhile.
    }
  }
  return null
}
