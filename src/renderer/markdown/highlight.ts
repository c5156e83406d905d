import { toJsxRuntime } from 'hast-util-to-jsx-runtime'
import bash from 'highlight.js/lib/languages/bash'
import c from 'highlight.js/lib/languages/c'
import cpp from 'highlight.js/lib/languages/cpp'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import dockerfile from 'highlight.js/lib/languages/dockerfile'
import go from 'highlight.js/lib/languages/go'
import ini from 'highlight.js/lib/languages/ini'
import java from 'highlight.js/lib/languages/java'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import makefile from 'highlight.js/lib/languages/makefile'
import markdown from 'highlight.js/lib/languages/markdown'
import python from 'highlight.js/lib/languages/python'
import rust from 'highlight.js/lib/languages/rust'
import shell from 'highlight.js/lib/languages/shell'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'
import { createLowlight } from 'lowlight'
import type { ReactNode } from 'react'
import { Fragment, jsx, jsxs } from 'react/jsx-runtime'

/*
 * The languages agents write most, registered one by one: highlight.js's full set would
 * triple the renderer's bundle for languages a team rarely shows. Each brings its own aliases
 * (ts, js, sh, py, yml, html, md…).
 */
const lowlight = createLowlight({
  bash,
  c,
  cpp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  makefile,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
})
lowlight.registerAlias({ ini: ['toml'], bash: ['console'] })

/** Past this size a block is shown plain: highlighting it would hold up the frame. */
const HIGHLIGHT_LIMIT = 60_000

/** The registered language for a fence's info string or a name, or null to show it plain. */
export function knownLanguage(language: string | null | undefined): string | null {
  if (language === null || language === undefined || language === '') return null
  const name = language.toLowerCase()
  return lowlight.registered(name) ? name : null
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

/**
 * `code` as React elements with highlight.js's classes (`hljs-keyword`…), which the stylesheet
 * colours per theme; plain text for an unknown language or a very large block.
 */
export function highlightCode(code: string, language: string | null): ReactNode {
  const known = knownLanguage(language)
  if (known === null || code.length > HIGHLIGHT_LIMIT) return code
  return toJsxRuntime(lowlight.highlight(known, code), { Fragment, jsx, jsxs })
}
