import { Encoder, Index } from 'flexsearch'
import { describe, expect, it } from 'vitest'
import { indexWords } from '../../../../src/runtime/history/index-words'
import { PostingLists } from '../../../../src/runtime/history/posting-lists'
import { WordIndex } from '../../../../src/runtime/history/word-index'

/** A small deterministic generator (the same texts on every run). */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31
    return state / 2 ** 31
  }
}

/**
 * Pieces that make words sharing prefixes ("ca", "cat", "catalog"), digits, accents, doubled
 * letters, other scripts, an astral letter, and separators.
 */
const PIECES = [
  'ca',
  't',
  'alog',
  'ss',
  'Café',
  'é',
  'naïve',
  'ZEBRA',
  'quokka',
  'quoka',
  '2026',
  '7',
  '1000000',
  'δέλτα',
  'Привет',
  '検索',
  '𠀀',
  'ﬁle',
  'İ',
  'x',
]
const SEPARATORS = [' ', ' ', ' ', '\n', '-', '_', '.', '/', ': ', '"', '(', ' 😀 ']

function generatedText(next: () => number, words: number): string {
  let text = ''
  for (let word = 0; word < words; word++) {
    const pieces = 1 + Math.floor(next() * 3)
    for (let piece = 0; piece < pieces; piece++)
      text += PIECES[Math.floor(next() * PIECES.length)] ?? ''
    text += SEPARATORS[Math.floor(next() * SEPARATORS.length)] ?? ''
  }
  return text
}

/** What the index answered when it was FlexSearch (its encoder's cache off, so it is stable). */
function flexSearchIndex(): { add(text: string): void; search(text: string): number[] } {
  const index = new Index({ tokenize: 'forward', encoder: { cache: false } })
  let count = 0
  return {
    add: (text) => index.add(count++, text),
    search: (text) => index.search(text, { limit: Math.max(1, count) }) as number[],
  }
}

describe('the word index', () => {
  it('cuts and folds words as FlexSearch did', () => {
    const encoder = new Encoder({ cache: false })
    const next = random(7)
    for (let sample = 0; sample < 500; sample++) {
      const text = generatedText(next, 1 + Math.floor(next() * 12))
      // The index took each word once, in the order the words first appear.
      expect(indexWords(text), text).toEqual([...new Set(encoder.encode(text))])
    }
    expect(indexWords('Café CAFE café')).toEqual(['cafe'])
    expect(indexWords('the quokka, the Quoka')).toEqual(['the', 'quoka'])
    expect(indexWords('build 20261203')).toEqual(['build', '202', '612', '03'])
    expect(indexWords(`${'a'.repeat(1023)}b ${'c'.repeat(1025)} d`)).toEqual(['ab', 'd'])
  })

  it('finds and orders what FlexSearch found, also after appends', () => {
    const next = random(11)
    const ours = new WordIndex()
    const theirs = flexSearchIndex()
    const queries = ['c', 'ca', 'cat', 'cata', 'catalog', 'cafe', 'caf', 'CAFÉ', 'quokka', 'quoka']
    queries.push('ca t', 'cat ca', 'zebra ca', 'ca zebra 7', '2026', '202 6', '1000', 'naive')
    queries.push('δέλ', 'привет', '検', '𠀀', 'file', 'i', 'x ca', 'nothing', 'ca nothing', '')
    for (let round = 0; round < 6; round++) {
      for (let document = 0; document < 150; document++) {
        // Documents of every size: the rank is scaled past nine words.
        const text = generatedText(next, Math.floor(next() * (document % 3 === 0 ? 40 : 8)))
        ours.add(text)
        theirs.add(text)
      }
      for (const query of queries) expect(ours.search(query), query).toEqual(theirs.search(query))
    }
    expect(ours.size).toBe(900)
  })

  it('matches a prefix with the words it begins, and no other', () => {
    const index = new WordIndex()
    index.add('scatter the cat') // 0
    index.add('a catalog of categories') // 1
    index.add('cab') // 2
    index.add('caterpillar') // 3
    expect(index.search('cat').sort()).toEqual([0, 1, 3])
    // Caterpillar's first word ranks before categories, the fourth word of its document.
    expect(index.search('cate')).toEqual([3, 1])
    expect(index.search('catalogue')).toEqual([])
    // Past the last word, before the first one, and between two, in sorted order.
    expect(index.search('zz')).toEqual([])
    expect(index.search('0')).toEqual([])
    expect(index.search('ab')).toEqual([])
    expect(index.search('a')).toEqual([1])
  })

  it('finds the first and the last word of a document, and words across separators', () => {
    const index = new WordIndex()
    index.add('first middle last')
    index.add('path/to/file.ts:12')
    index.add('')
    index.add('   ')
    expect(index.search('first')).toEqual([0])
    expect(index.search('last')).toEqual([0])
    expect(index.search('file ts')).toEqual([1])
    expect(index.search('12')).toEqual([1])
    expect(index.size).toBe(4)
  })

  it('ignores case and accents, in any script', () => {
    const index = new WordIndex()
    index.add('Le Café est fermé')
    index.add('Привет, мир')
    index.add('全文検索のテスト')
    index.add('ΔΈΛΤΑ and 𠀀𠀁')
    expect(index.search('cafe ferme')).toEqual([0])
    expect(index.search('CAFÉ')).toEqual([0])
    expect(index.search('привет')).toEqual([1])
    expect(index.search('全文')).toEqual([2])
    expect(index.search('δελτα')).toEqual([3])
    expect(index.search('𠀀')).toEqual([3])
  })

  it('finds words first seen after a search', () => {
    const index = new WordIndex()
    index.add('alpha gamma')
    expect(index.search('beta')).toEqual([])
    index.add('beta')
    index.add('alphabet')
    // New words sort in between the old ones.
    expect(index.search('beta')).toEqual([1])
    expect(index.search('alpha')).toEqual([0, 2])
    index.add('gamma alpha')
    expect(index.search('gamma')).toEqual([3, 0])
    expect(index.search('alpha')).toEqual([0, 2, 3])
  })

  it('ranks a match by how early its word comes, then by the order added', () => {
    const index = new WordIndex()
    index.add('one two three target') // 0: target fourth
    index.add('target one') // 1: target first
    index.add('one target') // 2: target second
    index.add('target') // 3
    expect(index.search('target')).toEqual([1, 3, 2, 0])
    // Several words: the worst of their ranks decides.
    expect(index.search('one target')).toEqual([1, 2, 0])
  })
})

describe('the posting lists', () => {
  it('keeps each list whole and in order across blocks and pages', () => {
    const lists = new PostingLists()
    const expected: number[][] = []
    const next = random(3)
    // Lists of very different lengths, appended to in turn: blocks of each list are spread
    // over many pages (of 16,384 entries), and a block never crosses a page's end.
    for (let round = 0; round < 300_000; round++) {
      if (expected.length < 20_000 && (round % 7 === 0 || expected.length === 0)) {
        expect(lists.create()).toBe(expected.length)
        expected.push([])
      }
      const list = Math.floor(next() ** 3 * expected.length)
      const value = Math.floor(next() * 2 ** 32)
      lists.append(list, value)
      expected[list]?.push(value)
    }
    expected.forEach((values, list) => {
      const seen: number[] = []
      lists.forEach(list, (value) => seen.push(value))
      expect(seen, `list ${list}`).toEqual(values)
    })
  })
})
