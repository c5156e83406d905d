import type { Position } from '../../shared/position'

export type { Position }

export const START: Position = { segment: 1, offset: 0 }

export function comparePositions(a: Position, b: Position): number {
  return a.segment !== b.segment ? a.segment - b.segment : a.offset - b.offset
}

/** The id a line without one gets: stable for as long as the line sits where it was appended. */
export function positionId(position: Position): string {
  return `p${position.segment}-${position.offset}`
}

export function isPosition(value: unknown): value is Position {
  if (typeof value !== 'object' || value === null) return false
  const { segment, offset } = value as Record<string, unknown>
  return (
    Number.isSafeInteger(segment) &&
    (segment as number) >= 1 &&
    Number.isSafeInteger(offset) &&
    (offset as number) >= 0
  )
}
