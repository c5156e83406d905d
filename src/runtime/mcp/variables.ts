const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/**
 * Replaces `${VAR}` and `${VAR:-default}` with the user's environment, as Claude Code does in
 * `.mcp.json`. A variable that is unset (or empty, for the `:-` form) and has no default is
 * reported by name, so that the server is refused with the fix rather than started wrong.
 */
export function expandVariables(
  text: string,
  env: NodeJS.ProcessEnv,
): { value: string } | { missing: string } {
  let missing: string | null = null
  const value = text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const found = env[name]
    if (found !== undefined && (found !== '' || fallback === undefined)) return found
    if (fallback !== undefined) return fallback
    missing ??= name
    return ''
  })
  return missing === null ? { value } : { missing }
}
