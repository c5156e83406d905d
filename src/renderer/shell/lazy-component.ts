import { createElement, lazy, type ComponentType, type FunctionComponent } from 'react'

/** A component whose code is a chunk of its own, loaded when it first renders (or preloaded). */
export interface LazyComponent<P> extends FunctionComponent<P> {
  /** Loads the chunk now; once it is there, the component renders without suspending. */
  preload(): Promise<void>
}

const everyChunk: (() => Promise<void>)[] = []

/**
 * React.lazy, plus a way to load the chunk ahead of its first render. Render it inside
 * <Suspense>: the first render suspends until the chunk is there, unless it was preloaded.
 */
export function lazyComponent<P extends object>(
  load: () => Promise<ComponentType<P>>,
): LazyComponent<P> {
  let loaded: ComponentType<P> | null = null
  let loading: Promise<ComponentType<P>> | null = null
  const start = () => (loading ??= load().then((component) => (loaded = component)))
  const Suspending = lazy(() => start().then((component) => ({ default: component })))
  const Component = (props: P) =>
    loaded === null ? createElement(Suspending, props) : createElement(loaded, props)
  const preload = () => start().then(() => undefined)
  everyChunk.push(preload)
  return Object.assign(Component, { preload })
}

/** Every chunk declared with lazyComponent, loaded: the tests' windows then never suspend. */
export async function preloadChunks(): Promise<void> {
  await Promise.all(everyChunk.map((preload) => preload()))
}
