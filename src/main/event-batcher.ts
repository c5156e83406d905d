// The app's events on their way to the renderer over IPC: batched by the shared batcher.
export {
  appendMerged,
  createEventBatcher,
  FRAME_INTERVAL_MS,
  type EventBatcher,
  type EventBatcherOptions,
  type Timers,
} from '../shared/event-batching'
