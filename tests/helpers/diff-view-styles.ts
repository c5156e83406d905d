import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/**
 * Every `style="…"` attribute value the installed @git-diff-view/core writes into its highlighted
 * HTML, read from its own source: the word-level highlight of a changed line (its colour variable
 * and corner radii) and the syntax wrapper's (always empty: lowlight gives classes, not styles).
 * A template this reader does not know fails loudly, so an upgrade cannot slip a new one past
 * the CSP's list.
 */
export function diffViewStyleAttributes(): string[] {
  const require = createRequire(import.meta.url)
  const folder = dirname(require.resolve('@git-diff-view/core/package.json'))
  const source = readFileSync(join(folder, 'dist', 'esm', 'index.mjs'), 'utf8')
  const colour = '${operator === "add" ? addContentHighlightBGName : delContentHighlightBGName}'
  const colours = ['--diff-add-content-highlight--', '--diff-del-content-highlight--']
  const values = new Set<string>()
  for (const match of source.matchAll(/style="/g)) {
    const rest = source.slice(match.index + 'style="'.length)
    if (rest.startsWith('${((') && /^\$\{\(\([^}]*\.style\) \|\| ""\}"/.test(rest)) {
      values.add('')
      continue
    }
    const head = `background-color: var(${colour})`
    if (!rest.startsWith(head)) throw new Error(`an unknown style template: ${rest.slice(0, 80)}`)
    const tail = rest.slice(head.length).split('">')[0] ?? ''
    for (const name of colours)
      for (const expanded of expandChoices(tail))
        values.add(`background-color: var(${name})${expanded}`)
  }
  return [...values].sort()
}

/**
 * `${isStart ? "0.2em" : "0"}` and the like, every way they can come out: the same condition
 * written twice (the top and bottom corners of a side) takes the same branch both times.
 */
function expandChoices(template: string): string[] {
  const choice = /\$\{([^}?]*)\? "([^"]*)" : "([^"]*)"\}/g
  const conditions = [...new Set([...template.matchAll(choice)].map((match) => match[1]))]
  if (template.replace(choice, '').includes('${'))
    throw new Error(`an unknown style template: ${template}`)
  const results: string[] = []
  for (let mask = 0; mask < 2 ** conditions.length; mask++)
    results.push(
      template.replace(choice, (_whole, condition: string, yes: string, no: string) =>
        mask & (1 << conditions.indexOf(condition)) ? yes : no,
      ),
    )
  return results
}

export function sha256Source(value: string): string {
  return `'sha256-${createHash('sha256').update(value).digest('base64')}'`
}
