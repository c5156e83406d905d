/** About 200 bytes a message, derived from its tag, so that a corrupt one is recognised. */
export function contentFor(tag: string): string {
  const filler = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(5).slice(0, 160)
  return `${tag}|${filler}|${tag.length}`
}

export function tagOf(content: string): string | null {
  const tag = content.split('|', 1)[0] ?? ''
  return contentFor(tag) === content ? tag : null
}
