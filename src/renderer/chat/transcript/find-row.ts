import type { TranscriptRecord } from '../../../shared/transcript'
import type { Row } from './rows'

/**
 * The index of the first row showing the record `seq`, or of the first row after it when that
 * record has no row of its own; -1 when no loaded row is at or after it. A tool card shows two
 * records (the call in a model turn and its result): it is found by either.
 */
export function rowIndexForSeq(
  rows: readonly Row[],
  records: readonly TranscriptRecord[],
  seq: number,
): number {
  const toolSeqs = new Map<string, number[]>()
  const addTool = (id: string, at: number) => {
    const seqs = toolSeqs.get(id) ?? []
    seqs.push(at)
    toolSeqs.set(id, seqs)
  }
  for (const record of records) {
    if (record.kind === 'tool-result') addTool(record.tool_use_id, record.seq)
    else if (record.kind === 'assistant')
      for (const block of record.content)
        if (block.type === 'tool_use' && typeof block.id === 'string') addTool(block.id, record.seq)
  }
  let after = -1
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index] as Row
    const seqs = rowSeqs(row, toolSeqs)
    if (seqs.includes(seq)) return index
    if (after < 0 && seqs.some((rowSeq) => rowSeq > seq)) after = index
  }
  return after
}

/** The records a row shows, from its key (`u12`, `a12-0`, `x12`, `t<tool id>`, …). */
function rowSeqs(row: Row, toolSeqs: ReadonlyMap<string, number[]>): number[] {
  if (row.kind === 'tool') return toolSeqs.get(row.call.id) ?? []
  const match = /^[uirscax](\d+)/.exec(row.key)
  return match ? [Number(match[1])] : []
}
