import { Writable } from 'node:stream'

/** A stream that keeps what is written to it, for running the CLI in process. */
export class Capture extends Writable {
  private chunks: string[] = []
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString())
    done()
  }
  get text(): string {
    return this.chunks.join('')
  }
  /** The non-empty lines written. */
  get lines(): string[] {
    return this.text.split('\n').filter((line) => line.length > 0)
  }
}
