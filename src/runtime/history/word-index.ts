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
/** In a query's table of keys: the document lacks one of the query words. */
const MISSING = 0xffff

/**
 * A full-text index of documents numbered 0, 1, 2… in the order added, in which a query word
 * matches every word it begins (the word being typed already matches).
 *
 * Each whole word has one posting list (the documents holding it, with the rank of the word in
 * each); a query word's matches are the union of the lists of the words it begins, which are
 * found next to each other in the sorted list of every word. Why our own code, measured on the
 * search bench's team: FlexSearch's `forward` index (used before) keeps a list for every prefix
 * of every word, about five times the memory, to answer a prefix without that union (which
 * costs milliseconds); MiniSearch keeps whole words too, but took as much memory as FlexSearch,
 * queries ten times slower than ours, and ranks by BM25, which would reorder the hits people
 * see. What is left is small: a sorted list and merged lists.
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
    const ranks: Uint8Array[] = []
    for (const term of terms) {
      const found = this.ranksOf(term)
      if (found === null) return []
      ranks.push(found)
    }
    return ranks.length === 1
      ? inOrder(ranks[0] as Uint8Array, RANKS)
      : inOrder(worstRanks(ranks), RANKS * ranks.length)
  }

  /**
   * By document, its best rank for `term` (the rank of the first word `term` begins), or NONE;
   * null when no word begins with `term`.
   */
  private ranksOf(term: string): Uint8Array | null {
    const ranks = new Uint8Array(this.count).fill(NONE)
    let words = 0
    const visit = (entry: number): void => {
      const document = entry >>> RANK_BITS
      const rank = entry & (RANK_SPAN - 1)
      if (rank < (ranks[document] as number)) ranks[document] = rank
    }
    for (let at = lowerBound(this.sorted, term); at < this.sorted.length; at++, words++) {
      const word = this.sorted[at] as string
      if (!word.startsWith(term)) break
      this.lists.forEach(this.listOfWord.get(word) as number, visit)
    }
    return words === 0 ? null : ranks
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

/** The rank of the word at `position` among a document's `words` distinct words. */
function rankAt(position: number, words: number): number {
  if (position === 0) return 0
  if (words <= RANKS) return position
  return (((RANKS - 1) / words) * position + 1) | 0
}

/**
 * Several query words: by document, a key that orders as the index always has — the worst
 * of its ranks, then the last query word with that rank — or MISSING when one is not there.
 */
function worstRanks(ranks: readonly Uint8Array[]): Uint16Array {
  const count = ranks[0]?.length ?? 0
  const keys = new Uint16Array(count)
  for (let document = 0; document < count; document++) {
    let worst = -1
    let last = 0
    for (let term = 0; term < ranks.length && worst !== NONE; term++) {
      const rank = (ranks[term] as Uint8Array)[document] as number
      if (rank >= worst) {
        worst = rank
        last = term
      }
    }
    keys[document] = worst === NONE ? MISSING : worst * ranks.length + last
  }
  return keys
}

/** The documents with a key below `distinct`, by key, then in the order added. */
function inOrder(keys: Uint8Array | Uint16Array, distinct: number): number[] {
  // A counting sort: how many documents have each key, then each one put in its place.
  const next = new Int32Array(distinct + 1)
  for (const key of keys) if (key < distinct) next[key + 1] = (next[key + 1] as number) + 1
  for (let key = 1; key <= distinct; key++)
    next[key] = (next[key] as number) + (next[key - 1] as number)
  const ordered = new Array<number>(next[distinct] as number)
  for (let document = 0; document < keys.length; document++) {
    const key = keys[document] as number
    if (key >= distinct) continue
    const place = next[key] as number
    ordered[place] = document
    next[key] = place + 1
  }
  return ordered
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
