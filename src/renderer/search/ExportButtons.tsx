import { useState } from 'react'
import type { ExportFormat } from '../../shared/history'
import { LEAD } from '../../shared/names'
import { useAppStore } from '../store/context'
import { describeFailure } from '../store/failures'

/** Saves text as a file: a download in the browser; Electron saves a download the same way. */
function download(fileName: string, mimeType: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  // The click has handed the blob to the download; the address is no longer needed.
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** Export an agent's transcript (`agent`) or the whole team's history, as Markdown or JSONL. */
export function ExportButtons({ agent }: { readonly agent: string | null }) {
  const exportHistory = useAppStore((state) => state.exportHistory)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const what =
    agent === null ? 'the team’s history' : `${agent === LEAD ? 'the lead' : agent}’s transcript`
  async function save(format: ExportFormat): Promise<void> {
    setBusy(true)
    setError(null)
    try {
      const exported = await exportHistory({ format, ...(agent === null ? {} : { agent }) })
      download(exported.fileName, exported.mimeType, exported.content)
    } catch (failure) {
      setError(`Could not export: ${describeFailure(failure).message}`)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="export-row">
      <span className="muted small">Export {what}:</span>
      <button
        type="button"
        className="button button-ghost"
        disabled={busy}
        onClick={() => void save('md')}
      >
        Markdown
      </button>
      <button
        type="button"
        className="button button-ghost"
        disabled={busy}
        onClick={() => void save('jsonl')}
      >
        JSONL
      </button>
      {error === null ? null : (
        <span className="inline-error" role="alert">
          {error}
        </span>
      )}
    </div>
  )
}
