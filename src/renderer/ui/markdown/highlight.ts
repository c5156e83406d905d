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
import { knownLanguage } from './languages'

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

/** The languages registered and whether a name or alias is: for the test of languages.ts. */
export function registeredLanguages(): { names: string[]; has: (name: string) => boolean } {
  return { names: lowlight.listLanguages(), has: (name) => lowlight.registered(name) }
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
