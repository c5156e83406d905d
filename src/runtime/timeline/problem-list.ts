/**
 * The problems one source of the timeline reports (a transcript, a log, an inbox), capped: a
 * cloned repository's `.team/` may hold hundreds of thousands of broken lines, and a problem
 * kept for each would fill the memory and the person's screen alike. The first
 * `PROBLEMS_PER_SOURCE` are kept, then one line counts the rest.
 */
export const PROBLEMS_PER_SOURCE = 20

export class ProblemList {
  private readonly kept: string[] = []
  private more = 0

  constructor(
    /** The line that counts the problems left out. */
    private readonly moreLine: (count: number) => string = (count) => `and ${count} more problems`,
    private readonly limit = PROBLEMS_PER_SOURCE,
  ) {}

  push(problem: string): void {
    if (this.kept.length < this.limit) this.kept.push(problem)
    else this.more++
  }

  /** The problems kept (in the order added, or reversed), then the line counting the rest. */
  list(order: 'as-added' | 'reversed' = 'as-added'): string[] {
    const kept = order === 'reversed' ? [...this.kept].reverse() : [...this.kept]
    return this.more === 0 ? kept : [...kept, this.moreLine(this.more)]
  }
}

/** Appends `more` to `into` one by one: a spread of a long list overflows the call stack. */
export function appendProblems(into: string[], more: readonly string[]): void {
  for (const problem of more) into.push(problem)
}
