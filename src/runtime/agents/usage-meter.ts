import { addModelUsage, type ModelUsage } from '../../shared/cost'
import type { TranscriptRecord, Usage } from '../../shared/transcript'
import { NO_USAGE, addUsage } from '../../shared/usage'

/** An agent's model calls and their tokens, over its whole life. */
export class UsageMeter {
  private total: Usage = NO_USAGE
  /** The same usage per model: what its cost is priced from. */
  private byModel: ModelUsage = []
  private calls = 0

  /** A meter that already counts the model calls a transcript's totals hold (after a restart). */
  static fromTotals(totals: { rounds: number; usage: Usage; byModel: ModelUsage }): UsageMeter {
    const meter = new UsageMeter()
    meter.calls = totals.rounds
    meter.total = totals.usage
    meter.byModel = totals.byModel
    return meter
  }

  /** A meter that already counts the model calls a transcript holds (after a restart). */
  static fromRecords(records: readonly TranscriptRecord[]): UsageMeter {
    const meter = new UsageMeter()
    for (const record of records) {
      // A summarizing call is a model call too, and its tokens are the agent's.
      if (record.kind !== 'assistant' && record.kind !== 'compaction') continue
      meter.count(record.usage, record.model)
    }
    return meter
  }

  get usage(): Usage {
    return this.total
  }
  get usageByModel(): ModelUsage {
    return this.byModel
  }
  /** Model calls made. */
  get rounds(): number {
    return this.calls
  }

  /** One model call and the tokens it used. */
  count(usage: Usage, model: string): void {
    this.calls++
    this.total = addUsage(this.total, usage)
    this.byModel = addModelUsage(this.byModel, model, usage)
  }
}
