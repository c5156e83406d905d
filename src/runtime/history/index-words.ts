/**
 * How the search index cuts a text into words, and folds each word so that what a person types
 * finds it. These are the rules the index has always applied (they were FlexSearch's default
 * encoder's, which the index used before it became our own; `word-index.test.ts` checks the
 * two agree):
 * - case and accents are ignored ("Café" is "cafe");
 * - a word is a run of letters and digits; anything else separates words;
 * - a run of digits is cut in groups of three ("20261203" is "202 612 03"), so that a long
 *   number is found by its first digits;
 * - a letter repeated is one letter ("quokka" is "quoka"), a forgiving match for doubled
 *   letters;
 * - a word longer than MAX_WORD characters (a base64 blob) is not indexed.
 */

/** Accents that NFKD splits off a letter ("é" is "e" and a combining acute). */
const COMBINING_MARKS = /[\u0300-\u036f]/g
const NOT_WORD = /[^\p{L}\p{N}]+/u
/** A character other than printable ASCII, a tab or a line break. */
const NOT_PLAIN_ASCII = /[^ -~\t\n\r]/
const DIGITS_AFTER_OTHER = /(\D)(\d{3})/g
const DIGITS_BEFORE_OTHER = /(\d{3})(\D)/g
const DIGIT_GROUPS = /(\d{3})/g
// Without the `u` flag on purpose: characters are compared one UTF-16 unit at a time, as before.
const REPEATED = /([\s\S])\1+/g
/** Longest word indexed, in UTF-16 units (before its repeated letters are folded). */
const MAX_WORD = 1024

/** The folded words of `text`, each once, in the order they first appear. */
export function indexWords(text: string): string[] {
  // Plain ASCII has no accents nor compatibility forms: most texts skip the costly normalization.
  let folded = (
    NOT_PLAIN_ASCII.test(text) ? text.normalize('NFKD').replace(COMBINING_MARKS, '') : text
  ).toLowerCase()
  if (folded.length > 3)
    folded = folded
      .replace(DIGITS_AFTER_OTHER, '$1 $2')
      .replace(DIGITS_BEFORE_OTHER, '$1 $2')
      .replace(DIGIT_GROUPS, '$1 ')
  const seen = new Set<string>()
  const words: string[] = []
  for (const raw of folded.split(NOT_WORD)) {
    if (raw.length === 0 || raw.length > MAX_WORD || seen.has(raw)) continue
    seen.add(raw)
    const word = raw.length > 1 ? raw.replace(REPEATED, '$1') : raw
    if (word !== raw) {
      if (seen.has(word)) continue
      seen.add(word)
    }
    words.push(word)
  }
  return words
}
