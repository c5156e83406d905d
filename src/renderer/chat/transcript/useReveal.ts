import type { Virtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef } from 'react'
import type { TranscriptRecord } from '../../../shared/transcript'
import { useAppStore } from '../../store/context'
import { rowIndexForSeq } from './find-row'
import type { Row } from './rows'

/**
 * A search hit opened in this transcript: reads the transcript back to its record when that is
 * not loaded yet, scrolls the list to its row once, and answers the row's key to mark it.
 */
export function useReveal(
  name: string,
  records: readonly TranscriptRecord[],
  rows: readonly Row[],
  ready: boolean,
  virtualizer: Virtualizer<HTMLDivElement, Element>,
): string | null {
  const reveal = useAppStore((state) => state.reveal)
  const loadThrough = useAppStore((state) => state.loadTranscriptThrough)
  const seq =
    reveal !== null && reveal.agent === name && reveal.place.source === 'transcript'
      ? reveal.place.seq
      : null
  const request = reveal?.request ?? 0
  const firstSeq = records[0]?.seq

  useEffect(() => {
    if (seq !== null && ready && firstSeq !== undefined && firstSeq > seq)
      void loadThrough(name, seq)
  }, [seq, ready, firstSeq, loadThrough, name])

  const index = useMemo(
    () =>
      seq === null || firstSeq === undefined || firstSeq > seq
        ? -1
        : rowIndexForSeq(rows, records, seq),
    [seq, firstSeq, rows, records],
  )
  const scrolledFor = useRef(0)
  useEffect(() => {
    if (index < 0 || scrolledFor.current === request) return
    scrolledFor.current = request
    virtualizer.scrollToIndex(index, { align: 'center' })
  }, [index, request, virtualizer])

  return index < 0 ? null : (rows[index]?.key ?? null)
}
