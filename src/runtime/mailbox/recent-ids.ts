/**
 * The ids of the last `capacity` messages delivered, to refuse a repeat of any of them. A Set
 * answers `has`; a ring of the same ids, in the order they came, says which one to forget next.
 * (The ring is there because finding the oldest through `set.values().next()` walks the Set's
 * deleted slots, which grows slower with every delivery.)
 */
export class RecentIds {
  private readonly ids = new Set<string>()
  private readonly ring: string[] = []
  /** Where the oldest id sits once the ring is full (the next slot to overwrite). */
  private head = 0

  constructor(
    private readonly capacity: number,
    initial: Iterable<string> = [],
  ) {
    if (!(capacity >= 1)) throw new RangeError(`capacity must be at least 1 (got ${capacity})`)
    for (const id of initial) this.add(id)
  }

  get size(): number {
    return this.ids.size
  }

  has(id: string): boolean {
    return this.ids.has(id)
  }

  /** Remembers `id` (a repeat changes nothing); forgets the oldest id when over capacity. */
  add(id: string): void {
    const before = this.ids.size
    this.ids.add(id)
    // One lookup instead of has-then-add: an id already there leaves the size as it was.
    if (this.ids.size === before) return
    if (this.ring.length < this.capacity) {
      this.ring.push(id)
      return
    }
    this.ids.delete(this.ring[this.head] as string)
    this.ring[this.head] = id
    this.head = (this.head + 1) % this.capacity
  }
}
