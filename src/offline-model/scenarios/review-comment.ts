import { USER } from '../../shared/names'
import type { ModelRequest, Reply, Turn } from '../script'
import { exchanges, ownBranch, sinceLatestMail } from './reading'

/**
 * How the offline model answers a review line comment (the message the Changes view sends,
 * `team-worktrees.ts`: "Review comment on FILE, line N: TEXT"). It reads the file, applies the
 * comment by one deterministic rule, writes it back, commits it when it works in a worktree of
 * its own, and replies with what it did. The rules, first match wins:
 *
 * - a suggestion block (three backticks and `suggestion`, as on GitHub): line N is replaced by
 *   the block's lines;
 * - "rename X to Y" (X and Y names, backticks optional): every whole-word X in the file becomes Y;
 * - "add a comment: TEXT" (or "add a comment saying TEXT"): a comment line with TEXT is put above
 *   line N, indented like it, in the file's comment syntax.
 *
 * Anything else is answered, not guessed at: the reply says which forms it understands.
 */
export const REVIEW_COMMENT = /^Review comment on (.+?), line (\d+): ([\s\S]*)$/

export type ReviewEdit =
  | { readonly ok: true; readonly content: string; readonly summary: string }
  | { readonly ok: false; readonly reason: string }

const SUGGESTION = /```suggestion[^\n]*\n([\s\S]*?)\n?```/
const RENAME = /\brename\s+`?([A-Za-z_$][\w$]*)`?\s+to\s+`?([A-Za-z_$][\w$]*)`?/i
const ADD_COMMENT = /\badd\s+a\s+comment(?:\s*:\s*|\s+saying\s+)(.+)/i

const UNDERSTOOD =
  'The offline model applies three kinds of comment: a ```suggestion block (it replaces the line), "rename X to Y", or "add a comment: TEXT"; a real model is needed for anything else.'

/** `source` with the comment on `line` applied, or why it cannot be. */
export function applyReviewComment(
  source: string,
  line: number,
  text: string,
  path: string,
): ReviewEdit {
  const trailingNewline = source.endsWith('\n')
  const lines = source.split('\n')
  if (trailingNewline) lines.pop()
  const join = (next: readonly string[]): string =>
    next.join('\n') + (trailingNewline || next.length === 0 ? '\n' : '')
  const outOfRange: ReviewEdit = {
    ok: false,
    reason: `${path} has ${lines.length} line${lines.length === 1 ? '' : 's'}; there is no line ${line} to change.`,
  }

  const suggestion = SUGGESTION.exec(text)
  if (suggestion) {
    if (line < 1 || line > lines.length) return outOfRange
    const replacement = (suggestion[1] ?? '').split('\n')
    return {
      ok: true,
      content: join([...lines.slice(0, line - 1), ...replacement, ...lines.slice(line)]),
      summary: `replaced line ${line} with your suggestion`,
    }
  }

  const rename = RENAME.exec(text)
  if (rename) {
    const [, from = '', to = ''] = rename
    const word = new RegExp(`(?<![\\w$])${from.replace(/\$/g, '\\$')}(?![\\w$])`, 'g')
    const count = source.match(word)?.length ?? 0
    if (count === 0) return { ok: false, reason: `${from} does not occur in ${path}.` }
    return {
      ok: true,
      // A function, so that `$` in the new name is never read as a replacement pattern.
      content: source.replace(word, () => to),
      summary: `renamed ${from} to ${to} (${count} place${count === 1 ? '' : 's'})`,
    }
  }

  const comment = ADD_COMMENT.exec(text)
  if (comment) {
    if (line < 1 || line > lines.length) return outOfRange
    const words = (comment[1] ?? '').trim().replace(/^["“'](.*)["”']$/, '$1')
    const indent = /^\s*/.exec(lines[line - 1] ?? '')?.[0] ?? ''
    return {
      ok: true,
      content: join([
        ...lines.slice(0, line - 1),
        `${indent}${commentLine(path, words)}`,
        ...lines.slice(line - 1),
      ]),
      summary: `added the comment above line ${line}`,
    }
  }
  return { ok: false, reason: UNDERSTOOD }
}

/** A line comment in the syntax of the file's kind (by its extension). */
function commentLine(path: string, words: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? ''
  if (['py', 'sh', 'bash', 'rb', 'yml', 'yaml', 'toml', 'r', 'pl'].includes(extension))
    return `# ${words}`
  if (['sql', 'lua', 'hs'].includes(extension)) return `-- ${words}`
  if (['md', 'html', 'xml', 'svg'].includes(extension)) return `<!-- ${words} -->`
  if (extension === 'css') return `/* ${words} */`
  return `// ${words}`
}

/** `text` as one shell word, whatever it holds. */
export function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}

/**
 * A bash command that commits everything in the agent's worktree as `name` (nothing when
 * nothing changed, so a second run does not fail) and prints the commit it is on.
 */
export function commitCommand(name: string, message: string): string {
  const identity = `-c user.name=${name} -c user.email=${name}@agent-teams.local`
  return (
    `git add -A && { git diff --cached --quiet || git ${identity} commit -q -m ${shellWord(message)}; }` +
    ` && git log -1 --format='%h %s'`
  )
}

const say = (text: string): Turn => ({ content: [{ type: 'text', text }] })
const call = (text: string, name: string, input: Record<string, unknown>): Turn => ({
  content: [
    { type: 'text', text },
    { type: 'tool_use', name, input },
  ],
})

/** The teammate's answer to the person's latest review comment, or null when none is pending. */
export function reviewCommentReply(agent: string, request: ModelRequest): Reply | null {
  const found = sinceLatestMail(
    request,
    (mail) => mail.from === USER && REVIEW_COMMENT.test(mail.content),
  )
  if (found === null) return null
  const [, file = '', lineText = '0', text = ''] = REVIEW_COMMENT.exec(found.mail.content) ?? []
  const line = Number(lineText)
  const branch = ownBranch(request)
  const steps = exchanges(found.request)
  const last = steps[steps.length - 1]
  if (last === undefined)
    return call(`Reading ${file} for your comment on line ${line}.`, 'read_file', { path: file })
  const result = last.result
  if (result === null) return say('Waiting for my last step to finish.')
  if (result.isError) return say(`I could not apply your comment on ${file}: ${result.content}`)

  const read = steps.find((step) => step.call.name === 'read_file')?.result
  const source = read === undefined || read === null ? '' : read.content
  if (/\[output truncated: \d+ characters/.test(source))
    return say(`${file} is too long for the offline model to rewrite; a real model is needed.`)
  const edit = applyReviewComment(source === '(empty file)' ? '' : source, line, text, file)
  if (!edit.ok) return say(`About your comment on ${file}, line ${line}: ${edit.reason}`)

  switch (last.call.name) {
    case 'read_file':
      return call(`Applying your comment: ${edit.summary}.`, 'write_file', {
        path: file,
        content: edit.content,
      })
    case 'write_file':
      if (branch === null) return say(`Done: ${edit.summary} in ${file}, as you asked.`)
      return call('Committing the change.', 'bash', {
        command: commitCommand(agent, `Review: ${edit.summary} in ${file}`),
      })
    default: {
      const commit = result.content.trim().split(/\s/)[0] ?? ''
      return say(
        `Done: ${edit.summary} in ${file}, as you asked; committed on ${branch ?? 'my branch'} as ${commit}.`,
      )
    }
  }
}
