/** Tells the pane writer which panes are in view. */
export interface PaneVisibility {
  /** Follows `element` as `name`'s pane until the returned function is called. */
  observe(name: string, element: Element): () => void
  dispose(): void
}

/** Panes this close to the grid's visible part count as in view: written before they scroll in. */
const MARGIN = '200px 0px'

/**
 * Which activity panes are in view of the scrolling grid (`root`), reported to `onChange`. A
 * team of 50 has most tiles out of view; their text need not be parsed and laid out until the
 * person scrolls to them. Without IntersectionObserver (jsdom), every pane counts as in view.
 */
export function watchPaneVisibility(
  root: Element,
  onChange: (name: string, visible: boolean) => void,
): PaneVisibility {
  if (typeof IntersectionObserver === 'undefined')
    return { observe: () => () => undefined, dispose: () => undefined }
  const names = new Map<Element, string>()
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        const name = names.get(entry.target)
        if (name !== undefined) onChange(name, entry.isIntersecting)
      }
    },
    { root, rootMargin: MARGIN },
  )
  return {
    observe(name, element) {
      names.set(element, name)
      observer.observe(element)
      return () => {
        observer.unobserve(element)
        names.delete(element)
      }
    },
    dispose() {
      observer.disconnect()
      names.clear()
    },
  }
}
