import { useId, useState, type ChangeEvent } from 'react'
import { LEAD } from '../../shared/names'
import type { TemplateEntry } from '../../shared/templates'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { useCommand } from '../ui/useCommand'
import { useListing } from '../ui/useListing'

/**
 * Team templates: save the open team, apply one to a team without members, edit a saved one
 * (its JSON, checked by the app before it is kept), delete, export as a file and import one.
 */
export function TemplatesDialog() {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const listTemplates = useAppStore((state) => state.listTemplates)
  const hasMembers = useAppStore((state) => state.order.some((name) => name !== LEAD))
  const { listing, refresh, command: list } = useListing(listTemplates)
  const [editing, setEditing] = useState<TemplateEntry | null>(null)
  const [notice, setNotice] = useState<string | null>(null)

  const done = (message: string): void => {
    setNotice(message)
    setEditing(null)
    void refresh()
  }

  return (
    <Dialog
      title="Team templates"
      description="A template is a team's members — names, roles, models and first prompts, no transcripts — kept in your config folder, to start the same team in another folder."
      onClose={closeDialog}
      wide
    >
      <InlineError error={list.error} />
      {notice !== null ? (
        <p className="small" role="status">
          {notice}
        </p>
      ) : null}
      {editing !== null ? (
        <TemplateEditor entry={editing} onDone={done} onCancel={() => setEditing(null)} />
      ) : (
        <>
          {listing === null ? <p className="muted small">Loading…</p> : null}
          <ul className="template-list" aria-label="Templates">
            {listing?.templates.map((entry) => (
              <TemplateItem
                key={entry.template.name}
                entry={entry}
                hasMembers={hasMembers}
                onDone={done}
                onEdit={() => setEditing(entry)}
              />
            ))}
          </ul>
          {listing?.problems.map((problem) => (
            <p key={problem.file} className="inline-error small" role="alert">
              {problem.message}
            </p>
          ))}
          <SaveTeam hasMembers={hasMembers} onDone={done} />
          <ImportTemplate onDone={done} />
        </>
      )}
    </Dialog>
  )
}

function TemplateItem({
  entry,
  hasMembers,
  onDone,
  onEdit,
}: {
  readonly entry: TemplateEntry
  readonly hasMembers: boolean
  readonly onDone: (message: string) => void
  readonly onEdit: () => void
}) {
  const { template, builtin } = entry
  const applyTemplate = useAppStore((state) => state.applyTemplate)
  const deleteTemplate = useAppStore((state) => state.deleteTemplate)
  const exportTemplate = useAppStore((state) => state.exportTemplate)
  const apply = useCommand(applyTemplate)
  const remove = useCommand(deleteTemplate)
  const download = useCommand(exportTemplate)
  const [confirming, setConfirming] = useState(false)

  async function runApply(): Promise<void> {
    const outcome = await apply.run(template.name)
    if (outcome.ok) onDone(outcome.value.summary)
  }
  async function runDelete(): Promise<void> {
    const outcome = await remove.run(template.name)
    if (outcome.ok) onDone(`Deleted the template "${template.name}".`)
  }
  async function runExport(): Promise<void> {
    const outcome = await download.run(template.name)
    if (outcome.ok) saveFile(outcome.value.fileName, outcome.value.json)
  }

  return (
    <li className="template-item" data-testid={`template-${template.name}`}>
      <strong>{template.name}</strong>
      {builtin ? <span className="muted small"> · built-in</span> : null}
      <div className="small">
        {template.members.map((member) => `${member.name} (${member.role})`).join(', ')}
      </div>
      {template.description !== '' ? (
        <div className="muted small">{template.description}</div>
      ) : null}
      <InlineError error={apply.error ?? remove.error ?? download.error} />
      <div className="template-item-actions">
        <button
          type="button"
          className="button button-primary button-small"
          disabled={hasMembers || apply.pending}
          title={
            hasMembers
              ? 'This team already has members: apply a template in a new or empty folder'
              : `Spawn ${template.members.length} teammates with their first prompts`
          }
          onClick={() => void runApply()}
        >
          {apply.pending ? 'Applying…' : 'Apply'}
        </button>
        <button
          type="button"
          className="button button-ghost button-small"
          onClick={() => void runExport()}
        >
          Export
        </button>
        {builtin ? null : (
          <>
            <button type="button" className="button button-ghost button-small" onClick={onEdit}>
              Edit
            </button>
            {confirming ? (
              <button
                type="button"
                className="button button-danger button-small"
                onClick={() => void runDelete()}
              >
                Delete {template.name} for good
              </button>
            ) : (
              <button
                type="button"
                className="button button-ghost button-small"
                onClick={() => setConfirming(true)}
              >
                Delete
              </button>
            )}
          </>
        )}
      </div>
    </li>
  )
}

/** A download of `text` as `fileName`, the same in Electron and in a browser. */
function saveFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

function SaveTeam({
  hasMembers,
  onDone,
}: {
  readonly hasMembers: boolean
  readonly onDone: (message: string) => void
}) {
  const saveTemplate = useAppStore((state) => state.saveTemplate)
  const save = useCommand(saveTemplate)
  const ids = { name: useId(), description: useId(), replace: useId() }
  const [name, setName] = useState('')
  const [description, setDescription] = useState('')
  const [replace, setReplace] = useState(false)

  async function submit(): Promise<void> {
    const outcome = await save.run({ name: name.trim(), description, replace })
    if (outcome.ok) onDone(`Saved the team as the template "${outcome.value.template.name}".`)
  }

  return (
    <form
      className="template-save"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <h3 className="small">Save this team as a template</h3>
      <Field id={ids.name} label="Template name">
        <input
          id={ids.name}
          value={name}
          placeholder="my-team"
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      <Field id={ids.description} label="Description">
        <input
          id={ids.description}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
      </Field>
      <label className="toggle" htmlFor={ids.replace}>
        <input
          id={ids.replace}
          type="checkbox"
          checked={replace}
          onChange={(event) => setReplace(event.target.checked)}
        />
        Replace a saved template of that name
      </label>
      <InlineError error={save.error} />
      <DialogFooter
        action={{
          label: 'Save team',
          disabled: !hasMembers || name.trim() === '',
          pending: save.pending,
          pendingLabel: 'Saving…',
          title: hasMembers ? undefined : 'Spawn teammates first: a template keeps its members',
        }}
      />
    </form>
  )
}

function ImportTemplate({ onDone }: { readonly onDone: (message: string) => void }) {
  const importTemplate = useAppStore((state) => state.importTemplate)
  const load = useCommand(importTemplate)
  const id = useId()

  async function onFile(event: ChangeEvent<HTMLInputElement>): Promise<void> {
    const file = event.target.files?.[0]
    event.target.value = ''
    if (file === undefined) return
    const outcome = await load.run({ json: await file.text() })
    if (outcome.ok) onDone(`Imported the template "${outcome.value.template.name}".`)
  }

  return (
    <Field id={id} label="Import a template file (.json, as exported)">
      <input
        id={id}
        type="file"
        accept=".json,application/json"
        onChange={(event) => void onFile(event)}
      />
      <InlineError error={load.error} />
    </Field>
  )
}

/** A saved template's JSON, edited as text; the app checks it before it is kept. */
function TemplateEditor({
  entry,
  onDone,
  onCancel,
}: {
  readonly entry: TemplateEntry
  readonly onDone: (message: string) => void
  readonly onCancel: () => void
}) {
  const editTemplate = useAppStore((state) => state.editTemplate)
  const save = useCommand(editTemplate)
  const id = useId()
  const [text, setText] = useState(() => JSON.stringify(entry.template, null, 2))
  const [parseError, setParseError] = useState<string | null>(null)

  async function submit(): Promise<void> {
    let template: unknown
    try {
      template = JSON.parse(text)
    } catch (error) {
      setParseError(`This is not valid JSON: ${(error as Error).message}`)
      return
    }
    setParseError(null)
    const outcome = await save.run({
      previousName: entry.template.name,
      template: template as Parameters<typeof editTemplate>[0]['template'],
    })
    if (outcome.ok) onDone(`Saved the template "${outcome.value.template.name}".`)
  }

  return (
    <div>
      <Field id={id} label={<>Template {entry.template.name} (JSON)</>}>
        <textarea
          id={id}
          className="template-editor"
          rows={18}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </Field>
      <InlineError
        error={parseError === null ? save.error : { code: 'error', message: parseError }}
      />
      <DialogFooter
        cancel={{ label: 'Cancel', onClick: onCancel }}
        action={{
          label: 'Save template',
          onClick: () => void submit(),
          pending: save.pending,
          pendingLabel: 'Saving…',
        }}
      />
    </div>
  )
}
