/**
 * Lookups by a key that came from a file, the model or a user (an agent's name, a request id, a
 * tool call's id). A plain object answers `record["constructor"]` with Object.prototype's
 * function, so a teammate named "constructor" looked already known, with a "budget" of
 * `Object`. Read such records only through `own`.
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}
