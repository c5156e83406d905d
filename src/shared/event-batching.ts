import type { HostEvent } from './contract'

/**
 * Appends `event` to a batch on its way to a UI, folding it into the last one when both are text
 * deltas of the same agent: a streaming reply becomes one event per batch instead of one per
 * token. Only neighbours merge, so the order of everything else is kept; the events themselves
 * are never mutated (other subscribers see them too).
 */
export function appendMerged(batch: HostEvent[], event: HostEvent): void {
  const last = batch[batch.length - 1]
  if (event.type === 'text-delta' && last?.type === 'text-delta' && last.agent === event.agent) {
    batch[batch.length - 1] = { ...last, text: last.text + event.text }
    return
  }
  batch.push(event)
}
