import { indexWords } from './index-words'
import { PostingLists } from './posting-lists'

/** Ranks a match can have: how early in its document the word is (0: its first word). */
const RANKS = 9
/** An entry of a posting list: the document's number shifted by RANK_BITS, and the rank. */
const RANK_BITS = 4
const RANK_SPAN = 1 << RANK_BITS
/** Documents one index holds at most: a number times RANK_SPAN must fit in 32 bits. */
const MAX_DOCUMENTS = 2 ** 32 / RANK_SPAN
/** In a query's table of ranks: the document has no word starting with that query word. */
const NONE = 0xff

/**
 * A full-text index of documents numbered 0, 1, 2… in the order added, in which a query word
 * matches every word it begins (the word being typed already matches).
 *
 * Each whole word has one posting list (the documents holding it, with the rank of the word in
 * each); a query word's matches are the union of the lists of the words it begins, which are
 * found next to each other in the sorted list of every word. An index of every prefix of every
 * word (FlexSearch's `forward`, used before) answers a prefix without that union, but keeps
 * a list for each prefix: about three times the memory, for queries that were already a few
 * milliseconds (see `npm run bench -- search`). MiniSearch also keeps whole words (in a radix
 * tree), but ranks by BM25, which would change the order of the hits people see.
 *
 * The order of matches is the one the index has always had (FlexSearch's): a document's rank
 * for a query word is how early, among its distinct words, the first word that query word
 * begins appears, in nine steps (first word 0; in a document of at most nine words its place;
 * in a longer one, its place scaled to 1–8). One query word: by rank, then in the order added.
 * Several (every one must match): by the worst rank among them, then by the last query word
 * that has it, then in the order added.
 */
export class WordIndex {
  private readonly lists = new PostingLists()
  private readonly listOfWord = new Map<string, number>()
  /** Every word, sorted, as of the last search. */
  private sorted: string[] = []
  /** Words first seen since the last search (sorted in then, once). */
  private unsorted: string[] = []
  private count = 0

  /** Documents added. */
  get size(): number {
    return this.count
  }

  /** Adds the next document, numbered `size` before the call. */
  add(text: string): void {
    if (this.count === MAX_DOCUMENTS)
      throw new RangeError(`An agent's search index holds at most ${MAX_DOCUMENTS} documents.`)
    const document = this.count++
    const words = indexWords(text)
    for (let position = 0; position < words.length; position++) {
      const word = words[position] as string
      let list = this.listOfWord.get(word)
      if (list === undefined) {
        list = this.lists.create()
        const kept = ownCopy(word)
        this.listOfWord.set(kept, list)
        this.unsorted.push(kept)
      }
      this.lists.append(list, document * RANK_SPAN + rankAt(position, words.length))
    }
  }

  /** The documents in which each word of `text` begins a word, best first. */
  search(text: string): number[] {
    const terms = indexWords(text)
    if (terms.length === 0) return []
    this.sortNewWords()
    const found: Matches[] = []
    for (const term of terms) {
      const matches = this.matchesOf(term)
      if (matches.documents.length === 0) return []
      found.push(matches)
    }
    return found.length === 1
      ? byRank(found[0] as Matches, this.count)
      : byWorstRank(found, this.count)
  }

  /** The documents holding a word that `term` begins, each with its best rank. */
  private matchesOf(term: string): Matches {
    const ranks = new Uint8Array(this.count).fill(NONE)
    const documents: number[] = []
    const visit = (entry: number): void => {
      const document = entry >>> RANK_BITS
      const rank = entry & (RANK_SPAN - 1)
      const before = ranks[document] as number
      if (before === NONE) documents.push(document)
      if (rank < before) ranks[document] = rank
    }
    for (let at = lowerBound(this.sorted, term); at < this.sorted.length; at++) {
      const word = this.sorted[at] as string
      if (!word.startsWith(term)) break
      this.lists.forEach(this.listOfWord.get(word) as number, visit)
    }
    return { ranks, documents }
  }

  private sortNewWords(): void {
    if (this.unsorted.length === 0) return
    const added = this.unsorted.sort()
    this.unsorted = []
    if (this.sorted.length === 0) {
      this.sorted = added
      return
    }
    const merged: string[] = []
    let left = 0
    let right = 0
    while (left < this.sorted.length && right < added.length) {
      const old = this.sorted[left] as string
      const fresh = added[right] as string
      if (old < fresh) {
        merged.push(old)
        left++
      } else {
        merged.push(fresh)
        right++
      }
    }
    this.sorted = merged.concat(this.sorted.slice(left), added.slice(right))
  }
}

interface Matches {
  /** By document: its best rank, or NONE. */
  readonly ranks: Uint8Array
  /** The documents matched, in no particular order. */
  readonly documents: number[]
}

/** The rank of the word at `position` among a document's `words` distinct words. */
function rankAt(position: number, words: number): number {
  if (position === 0) return 0
  if (words <= RANKS) return position
  return (((RANKS - 1) / words) * position + 1) | 0
}

/** The documents in increasing order. */
function ascending(documents: readonly number[], count: number): Iterable<number> {
  // Many matches: a pass over every document's number costs less than sorting them.
  if (documents.length * 16 > count) {
    const marked = new Uint8Array(count)
    for (const document of documents) marked[document] = 1
    const all: number[] = []
    for (let document = 0; document < count; document++) if (marked[document]) all.push(document)
    return all
  }
  return Int32Array.from(documents).sort()
}

function byRank(matches: Matches, count: number): number[] {
  const buckets: number[][] = Array.from({ length: RANKS }, () => [])
  for (const document of ascending(matches.documents, count))
    buckets[matches.ranks[document] as number]?.push(document)
  return buckets.flat()
}

function byWorstRank(found: readonly Matches[], count: number): number[] {
  const fewest = found.reduce((best, matches) =>
    matches.documents.length < best.documents.length ? matches : best,
  )
  const buckets: number[][] = Array.from({ length: RANKS * found.length }, () => [])
  next: for (const document of ascending(fewest.documents, count)) {
    let worst = -1
    let last = 0
    for (let term = 0; term < found.length; term++) {
      const rank = (found[term] as Matches).ranks[document] as number
      if (rank === NONE) continue next
      if (rank >= worst) {
        worst = rank
        last = term
      }
    }
    buckets[worst * found.length + last]?.push(document)
  }
  return buckets.flat()
}

/** The first place in `sorted` whose word is not before `word`. */
function lowerBound(sorted: readonly string[], word: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((sorted[middle] as string) < word) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * A copy of `word` of its own: a word cut from a document's text may be a view into that
 * whole text (V8 slices long strings), which keeping it in the index would keep alive.
 */
function ownCopy(word: string): string {
  return word.length < 13 ? word : word.split('').join('')
}
