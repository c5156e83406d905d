import { MESSAGE_FORMAT_VERSION, messageToLine, type MailMessage } from '../../../shared/messages'

export interface FormattedLine {
  /** The JSON line and its newline, exactly as `messageToLine` writes it. */
  readonly text: string
  /** Its size in UTF-8 bytes, newline included. */
  readonly bytes: number
}

/**
 * Printable ASCII other than `"` and `\`: text made only of these is its own JSON string body,
 * and one byte a character in UTF-8.
 */
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/

const HEAD = `{"v":${MESSAGE_FORMAT_VERSION},"id":"`

/** The last timestamp formatted and its text: a sender's messages share one per millisecond. */
let lastTimestamp = Number.NaN
let lastTimestampText = ''

/**
 * The line a message is written as. The usual message (no extras, plain ASCII content and id)
 * is put together from its parts, which costs a third of JSON.stringify of the whole record and
 * needs no byte count; anything else goes through `messageToLine`. Both give the same bytes
 * (the tests compare them): the core keys in the same order, names and types are plain ASCII by
 * their own rules, and a finite number prints the same in JSON as in a template.
 */
export function formatLine(message: MailMessage): FormattedLine {
  if (isPlainMessage(message)) {
    const text = `${HEAD}${message.id}","type":"${message.type}","from":"${message.from}","to":"${message.to}","content":"${message.content}","timestamp":${timestampText(message.timestamp)}}\n`
    return { text, bytes: text.length }
  }
  const text = `${messageToLine(message)}\n`
  return { text, bytes: Buffer.byteLength(text) }
}

function isPlainMessage(message: MailMessage): boolean {
  return (
    Number.isFinite(message.timestamp) &&
    !hasKeys(message.extra) &&
    PLAIN.test(message.id) &&
    PLAIN.test(message.content) &&
    // Checked by the sender already; again here, so that this function is right on its own.
    PLAIN.test(message.from) &&
    PLAIN.test(message.to) &&
    PLAIN.test(message.type)
  )
}

function hasKeys(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true
  return false
}

function timestampText(timestamp: number): string {
  if (timestamp !== lastTimestamp) {
    lastTimestamp = timestamp
    lastTimestampText = String(timestamp)
  }
  return lastTimestampText
}
