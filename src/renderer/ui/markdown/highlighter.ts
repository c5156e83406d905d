import { useEffect, useState } from 'react'
import type * as HighlightModule from './highlight'

type Highlighter = typeof HighlightModule

/*
 * highlight.js and its languages are a chunk of their own, loaded after the first paint: code
 * shows plain for the moment it takes, then highlighted. Most of the page (prose, roster) never
 * waits for it.
 */
let loaded: Highlighter | null = null
let loading: Promise<Highlighter> | null = null

export function loadHighlighter(): Promise<Highlighter> {
  loading ??= import('./highlight').then((module) => (loaded = module))
  return loading
}

/** The highlighter once loaded (null before; the component renders again when it arrives). */
export function useHighlighter(): Highlighter | null {
  const [highlighter, setHighlighter] = useState(loaded)
  useEffect(() => {
    if (highlighter !== null) return
    let live = true
    void loadHighlighter().then((module) => {
      if (live) setHighlighter(module)
    })
    return () => {
      live = false
    }
  }, [highlighter])
  return highlighter
}
