// What every part of the electron stand-in shares: the channel to the test, the record of calls,
// the refusal of misuse, and the strict wrapper that reports any API the stand-in does not know.
import { EventEmitter } from 'node:events'

if (typeof process.send !== 'function') {
  throw new Error('The electron stand-in runs only in a child forked with an IPC channel')
}

/** Whether the app has emitted 'ready' (the test decides when, with its 'ready' request). */
export const lifecycle = { ready: false }

let sequence = 0
/** Sends to the test, in order; process.send queues, so records never overtake each other. */
export const send = (message) => process.send(message)

export function serializable(value, depth = 0) {
  if (typeof value === 'function') return '[function]'
  if (value === undefined || value === null || typeof value !== 'object') return value ?? null
  if (depth > 8) return '[deep]'
  if (value instanceof EventEmitter) return '[emitter]'
  if (Array.isArray(value)) return value.map((item) => serializable(item, depth + 1))
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, serializable(item, depth + 1)]),
  )
}

export function record(api, ...args) {
  sequence += 1
  send({
    type: 'record',
    record: { seq: sequence, api, ready: lifecycle.ready, args: serializable(args) },
  })
}

/** Reports a misuse Electron would refuse, and throws as Electron does. */
export function refuse(api, message) {
  send({ type: 'misuse', api, message })
  throw new Error(`${api}: ${message}`)
}

const EMITTER_METHODS = new Set([
  'on',
  'once',
  'off',
  'addListener',
  'removeListener',
  'removeAllListeners',
  'emit',
  'listeners',
  'listenerCount',
  'prependListener',
])

/** Wraps `target` so that reading any property it does not know reports and throws. */
export function strict(name, target, { emitter = false } = {}) {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') {
        return Reflect.get(object, property, receiver)
      }
      if (property in object && (emitter || !EMITTER_METHODS.has(property))) {
        return Reflect.get(object, property, receiver)
      }
      const api = `${name}.${String(property)}`
      send({ type: 'unknown-api', api })
      throw new Error(`The electron stand-in does not know ${api}`)
    },
  })
}

/** An Electron event object: preventDefault is recorded so the test can see it was called. */
export function fakeEvent(api) {
  const event = {
    defaultPrevented: false,
    preventDefault() {
      event.defaultPrevented = true
      record(`${api}:preventDefault`)
    },
  }
  return event
}

/** app's events: kept here because windows emit 'web-contents-created' on it. */
export const appEmitter = new EventEmitter()
