import { useEffect, useId, useState } from 'react'
import type { InstructionFileView } from '../../shared/instructions'
import { TEAM_NOTE_MAX_CHARS } from '../../shared/instructions'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { formatBytes, formatNumber } from '../ui/format'
import { useCommand } from '../ui/useCommand'

const KIND_LABELS: Record<InstructionFileView['kind'], string> = {
  agents: 'AGENTS.md',
  claude: 'CLAUDE.md',
  import: 'import',
  'team-note': 'team note',
}

/**
 * What an agent's system prompt includes besides its role: the project's instruction files
 * (with their sizes, and what was cut or left out) and the team note, which is edited here.
 */
export function InstructionsDialog({ name }: { readonly name: string }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const getInstructions = useAppStore((state) => state.getInstructions)
  const getTeamNote = useAppStore((state) => state.getTeamNote)
  const setTeamNote = useAppStore((state) => state.setTeamNote)
  const noteId = useId()
  const [files, setFiles] = useState<readonly InstructionFileView[] | null>(null)
  const [note, setNote] = useState('')
  const [savedNote, setSavedNote] = useState('')
  const load = useCommand(getInstructions)
  const loadNote = useCommand(getTeamNote)
  const save = useCommand(setTeamNote)
  const { run: runLoad } = load
  const { run: runLoadNote } = loadNote

  useEffect(() => {
    void runLoad(name).then((outcome) => {
      if (outcome.ok) setFiles(outcome.value.files)
    })
    void runLoadNote().then((outcome) => {
      if (!outcome.ok) return
      setNote(outcome.value.text)
      setSavedNote(outcome.value.text)
    })
  }, [name, runLoad, runLoadNote])

  async function saveNote(): Promise<void> {
    const outcome = await save.run(note)
    if (!outcome.ok) return
    setSavedNote(outcome.value.text)
    const reloaded = await load.run(name)
    if (reloaded.ok) setFiles(reloaded.value.files)
  }

  return (
    <Dialog
      title={`Instructions of ${name}`}
      description="Read before every model call: an edit to AGENTS.md, CLAUDE.md or the team note reaches the next call."
      onClose={closeDialog}
      wide
    >
      <InlineError error={load.error ?? loadNote.error} />
      <section aria-label="Instruction files">
        <h3 className="small">Files in its system prompt</h3>
        {files === null ? (
          <p className="muted small">Loading…</p>
        ) : files.length === 0 ? (
          <p className="muted small">
            No AGENTS.md, CLAUDE.md or team note: it has its role and nothing more.
          </p>
        ) : (
          <ul className="instruction-files">
            {files.map((file, index) => (
              <InstructionFile key={`${file.path}-${index}`} file={file} />
            ))}
          </ul>
        )}
      </section>
      <section aria-label="Team note">
        <Field id={noteId} label="Team note (every member has it)">
          <textarea
            id={noteId}
            rows={6}
            value={note}
            maxLength={TEAM_NOTE_MAX_CHARS}
            onChange={(event) => setNote(event.target.value)}
            placeholder="Conventions for the whole team: how to commit, what not to touch…"
          />
        </Field>
        <InlineError error={save.error} />
        <DialogFooter
          cancel={{ label: 'Close', onClick: closeDialog }}
          action={{
            label: 'Save note',
            onClick: () => void saveNote(),
            disabled: note === savedNote,
            pending: save.pending,
            pendingLabel: 'Saving…',
          }}
        />
      </section>
    </Dialog>
  )
}

function InstructionFile({ file }: { readonly file: InstructionFileView }) {
  const cut = file.problem === null && file.shownChars < file.totalChars
  return (
    <li className={file.problem === null ? 'instruction-file' : 'instruction-file muted'}>
      <code>{file.path}</code> <span className="muted small">{KIND_LABELS[file.kind]}</span>{' '}
      <span className="small">{formatBytes(file.bytes)}</span>
      {file.importedBy !== null ? (
        <span className="muted small"> · imported by {file.importedBy}</span>
      ) : null}
      {cut ? (
        <span className="small instruction-cut">
          {' '}
          · cut: {formatNumber(file.shownChars)} of {formatNumber(file.totalChars)} characters shown
        </span>
      ) : null}
      {file.problem !== null ? <span className="small"> · left out: {file.problem}</span> : null}
    </li>
  )
}
