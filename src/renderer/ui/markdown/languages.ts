/*
 * The languages highlight.ts registers, by every name and alias a fence or a file may use: known
 * here without loading highlight.js, which is a chunk of its own (see highlighter.ts). A test
 * checks this list against highlight.js itself.
 */
export const LANGUAGE_NAMES: ReadonlySet<string> = new Set([
  'atom',
  'bash',
  'c',
  'c++',
  'cc',
  'cjs',
  'console',
  'cpp',
  'css',
  'cts',
  'cxx',
  'diff',
  'docker',
  'dockerfile',
  'go',
  'golang',
  'gyp',
  'h',
  'h++',
  'hh',
  'hpp',
  'html',
  'hxx',
  'ini',
  'ipython',
  'java',
  'javascript',
  'js',
  'json',
  'json5',
  'jsonc',
  'jsp',
  'jsx',
  'mak',
  'make',
  'makefile',
  'markdown',
  'md',
  'mjs',
  'mk',
  'mkd',
  'mkdown',
  'mts',
  'patch',
  'plist',
  'py',
  'python',
  'rs',
  'rss',
  'rust',
  'sh',
  'shell',
  'shellsession',
  'sql',
  'svg',
  'toml',
  'ts',
  'tsx',
  'typescript',
  'wsf',
  'xhtml',
  'xjb',
  'xml',
  'xsd',
  'xsl',
  'yaml',
  'yml',
  'zsh',
])

/** The registered language for a fence's info string or a name, or null to show it plain. */
export function knownLanguage(language: string | null | undefined): string | null {
  if (language === null || language === undefined || language === '') return null
  const name = language.toLowerCase()
  return LANGUAGE_NAMES.has(name) ? name : null
}

/** Files named by their whole name rather than by an extension. */
const namedFiles: Readonly<Record<string, string>> = {
  dockerfile: 'dockerfile',
  makefile: 'makefile',
  '.bashrc': 'bash',
  '.profile': 'bash',
}

/** The language of a file from its name (`src/app.ts` → typescript), or null. */
export function languageForPath(path: string): string | null {
  const base = (path.split(/[\\/]/).pop() ?? '').toLowerCase()
  const named = Object.hasOwn(namedFiles, base) ? namedFiles[base] : undefined
  if (named !== undefined) return named
  const dot = base.lastIndexOf('.')
  return dot > 0 ? knownLanguage(base.slice(dot + 1)) : null
}
