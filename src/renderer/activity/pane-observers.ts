/** Tells the pane writer which panes are in view and how large their text boxes are. */
export interface PaneObservers {
  /** Follows whether the pane `element` is in view until the returned function is called. */
  observeView(name: string, element: Element): () => void
  /** Follows the size of the pane's text box `element` until the returned function is called. */
  observeSize(name: string, element: Element): () => void
  dispose(): void
}

export interface PaneChanges {
  visible(name: string, visible: boolean): void
  resized(name: string, width: number, height: number): void
}

/** Panes this close to the grid's visible part count as in view: written before they scroll in. */
const MARGIN = '200px 0px'

/**
 * One IntersectionObserver (panes in view of the scrolling grid, `root`) and one ResizeObserver
 * (their text boxes) for all the activity panes. A team of 50 has most tiles out of view, and
 * small tiles: their text need not be parsed and laid out beyond what they show. Where an
 * observer is missing (jsdom), every pane counts as in view, at full size.
 */
export function watchPanes(root: Element, changes: PaneChanges): PaneObservers {
  const inView = new Map<Element, string>()
  const sized = new Map<Element, string>()
  const intersections =
    typeof IntersectionObserver === 'undefined'
      ? null
      : new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              const name = inView.get(entry.target)
              if (name !== undefined) changes.visible(name, entry.isIntersecting)
            }
          },
          { root, rootMargin: MARGIN },
        )
  const sizes =
    typeof ResizeObserver === 'undefined'
      ? null
      : new ResizeObserver((entries) => {
          for (const entry of entries) {
            const name = sized.get(entry.target)
            const box = entry.contentRect
            if (name !== undefined) changes.resized(name, box.width, box.height)
          }
        })
  const follow =
    (observer: IntersectionObserver | ResizeObserver | null, names: Map<Element, string>) =>
    (name: string, element: Element) => {
      if (observer === null) return () => undefined
      names.set(element, name)
      observer.observe(element)
      return () => {
        observer.unobserve(element)
        names.delete(element)
      }
    }
  return {
    observeView: follow(intersections, inView),
    observeSize: follow(sizes, sized),
    dispose() {
      intersections?.disconnect()
      sizes?.disconnect()
      inView.clear()
      sized.clear()
    },
  }
}
