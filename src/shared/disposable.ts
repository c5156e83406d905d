/**
 * What everything that must be ended is handed back as: a subscription, a watch, a timer, a
 * process hook. `dispose()` ends it; a second call does nothing. The one convention outside the
 * renderer's React code, where an effect's clean-up and `useSyncExternalStore` want a function.
 */
export interface Disposable {
  dispose(): void
}
