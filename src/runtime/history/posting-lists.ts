/** Entries of a list's first block: most words occur in a few documents only. */
const FIRST_BLOCK = 2
/** Entries of the largest block: a list grows by at most this much unused room. */
const LARGEST_BLOCK = 64
/** Numbers of a block before its entries: its capacity and where the next block starts. */
const HEADER = 2
/** Numbers a page holds (a power of two): blocks are cut from pages, never across two. */
const PAGE_BITS = 14
const PAGE = 1 << PAGE_BITS

/**
 * Many append-only lists of unsigned 32-bit numbers, in pages of one typed array each: a list
 * is a chain of blocks (2 entries, then twice as many up to 64). Typed pages instead of an array
 * per list keep each entry at 4 bytes and a word seen once at a few bytes (a JavaScript array of
 * its own would cost a hundred or so), and growing never copies what is there.
 */
export class PostingLists {
  private readonly pages: Uint32Array[] = []
  /** Numbers used in the last page (a full page at first: the first block starts a page). */
  private used = PAGE
  private count = 0
  // Per list: where its first and last blocks start, and the entries its last block holds.
  private firstBlock = new Uint32Array(256)
  private lastBlock = new Uint32Array(256)
  private lastFill = new Uint32Array(256)

  /** Starts an empty list and answers its number. */
  create(): number {
    if (this.count === this.firstBlock.length) {
      this.firstBlock = grown(this.firstBlock, this.count * 2)
      this.lastBlock = grown(this.lastBlock, this.count * 2)
      this.lastFill = grown(this.lastFill, this.count * 2)
    }
    const block = this.allocate(FIRST_BLOCK)
    this.firstBlock[this.count] = block
    this.lastBlock[this.count] = block
    this.lastFill[this.count] = 0
    return this.count++
  }

  append(list: number, value: number): void {
    let block = this.lastBlock[list] as number
    let fill = this.lastFill[list] as number
    let page = this.pageOf(block)
    let at = block & (PAGE - 1)
    const capacity = page[at] as number
    if (fill === capacity) {
      const next = this.allocate(Math.min(capacity * 2, LARGEST_BLOCK))
      page[at + 1] = next
      this.lastBlock[list] = block = next
      page = this.pageOf(block)
      at = block & (PAGE - 1)
      fill = 0
    }
    page[at + HEADER + fill] = value
    this.lastFill[list] = fill + 1
  }

  /** Calls `visit` with each value of `list`, in the order appended. */
  forEach(list: number, visit: (value: number) => void): void {
    const last = this.lastBlock[list] as number
    for (let block = this.firstBlock[list] as number; ;) {
      const page = this.pageOf(block)
      const start = (block & (PAGE - 1)) + HEADER
      const end =
        start + (block === last ? (this.lastFill[list] as number) : (page[start - 2] as number))
      for (let at = start; at < end; at++) visit(page[at] as number)
      if (block === last) return
      block = page[start - 1] as number
    }
  }

  private pageOf(block: number): Uint32Array {
    return this.pages[(block >>> PAGE_BITS) - 1] as Uint32Array
  }

  private allocate(capacity: number): number {
    const size = HEADER + capacity
    // A block that would cross into the next page starts that page instead.
    if (this.used + size > PAGE) {
      this.pages.push(new Uint32Array(PAGE))
      this.used = 0
    }
    const page = this.pages[this.pages.length - 1] as Uint32Array
    page[this.used] = capacity
    page[this.used + 1] = 0
    // A block's address: its page counted from 1 (so that 0 is never a block) and its offset.
    const block = this.pages.length * PAGE + this.used
    this.used += size
    return block
  }
}

function grown(array: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  const larger = new Uint32Array(length)
  larger.set(array)
  return larger
}
