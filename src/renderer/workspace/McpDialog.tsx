import { useId, useState } from 'react'
import type { McpServerView, McpStatus } from '../../shared/mcp'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { useCommand } from '../ui/useCommand'

/** How each server state reads, as the roster's status pills (the same classes). */
const LOOK: Record<McpStatus, { label: string; className: string }> = {
  off: { label: 'Off', className: 'status-shutdown' },
  starting: { label: 'Starting', className: 'status-waiting' },
  running: { label: 'Running', className: 'status-idle' },
  restarting: { label: 'Restarting', className: 'status-stalled' },
  failed: { label: 'Failed', className: 'status-error' },
  invalid: { label: 'Invalid', className: 'status-error' },
}

/** The team's MCP servers: state, tools, the tail of stderr; add one, remove an added one. */
export function McpDialog() {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const mcp = useAppStore((state) => state.mcp)
  const trusted = useAppStore((state) => state.trust?.trusted !== false)
  const openDialog = useAppStore((state) => state.openDialog)
  const remove = useCommand(useAppStore((state) => state.removeMcpServer))
  return (
    <Dialog
      title="MCP servers"
      description="Servers from the folder’s .mcp.json and those added here (.team/mcp.json). Their tools reach the agents as mcp__<server>__<tool>."
      onClose={closeDialog}
      wide
    >
      {(mcp?.problems ?? []).map((problem) => (
        <p key={problem} className="field-error" role="alert">
          {problem}
        </p>
      ))}
      {!trusted && (mcp?.servers.length ?? 0) > 0 ? (
        <p className="field-note">
          These servers are off: this workspace is not trusted.{' '}
          <button
            type="button"
            className="button button-small"
            onClick={() => openDialog({ kind: 'trust' })}
          >
            Review what it grants…
          </button>
        </p>
      ) : null}
      {(mcp?.servers.length ?? 0) === 0 ? (
        <p className="muted">No MCP servers yet.</p>
      ) : (
        <ul className="mcp-list">
          {mcp?.servers.map((server) => (
            <ServerRow
              key={server.name}
              server={server}
              onRemove={() => void remove.run(server.name)}
            />
          ))}
        </ul>
      )}
      <InlineError error={remove.error} />
      <AddServerForm />
    </Dialog>
  )
}

function ServerRow({
  server,
  onRemove,
}: {
  readonly server: McpServerView
  readonly onRemove: () => void
}) {
  const look = LOOK[server.status]
  return (
    <li className="mcp-server" data-server={server.name}>
      <div className="mcp-server-head">
        <strong>{server.name}</strong>
        <span className={`status ${look.className}`}>
          <span className="status-dot" aria-hidden="true" />
          <span className="status-label">{look.label}</span>
        </span>
        <span className="muted small">
          {server.transport ?? 'invalid'} · {server.source === 'team' ? 'added here' : '.mcp.json'}
          {server.restarts > 0 ? ` · restarted ${server.restarts}×` : ''}
        </span>
        {server.source === 'team' ? (
          <button type="button" className="button button-ghost button-small" onClick={onRemove}>
            Remove
          </button>
        ) : null}
      </div>
      {server.target ? <code className="mcp-target">{server.target}</code> : null}
      {server.detail ? <p className="field-note">{server.detail}</p> : null}
      {server.tools.length > 0 ? <p className="small">Tools: {server.tools.join(', ')}</p> : null}
      {server.stderrTail.length > 0 ? (
        <pre className="mcp-stderr" aria-label={`${server.name} stderr`}>
          {server.stderrTail.join('\n')}
        </pre>
      ) : null}
    </li>
  )
}

function AddServerForm() {
  const add = useCommand(useAppStore((state) => state.addMcpServer))
  const [name, setName] = useState('')
  const [target, setTarget] = useState('')
  const ids = { name: useId(), target: useId() }

  async function submit(): Promise<void> {
    const text = target.trim()
    const isUrl = /^https?:\/\//i.test(text)
    const [command = '', ...args] = text.split(/\s+/)
    const outcome = await add.run({
      name: name.trim(),
      server: isUrl ? { type: 'http', url: text } : { type: 'stdio', command, args },
    })
    if (outcome.ok) {
      setName('')
      setTarget('')
    }
  }

  return (
    <form
      className="form mcp-add"
      onSubmit={(event) => {
        event.preventDefault()
        void submit()
      }}
    >
      <Field id={ids.name} label="Add a server: name">
        <input
          id={ids.name}
          value={name}
          placeholder="files"
          onChange={(event) => setName(event.target.value)}
        />
      </Field>
      <Field id={ids.target} label="Command and arguments, or an http(s) address">
        <input
          id={ids.target}
          value={target}
          spellCheck={false}
          placeholder="npx -y @modelcontextprotocol/server-filesystem ."
          onChange={(event) => setTarget(event.target.value)}
        />
      </Field>
      <InlineError error={add.error} />
      <DialogFooter
        action={{
          label: 'Add',
          tone: 'plain',
          disabled: add.pending || name.trim() === '' || target.trim() === '',
        }}
      />
    </form>
  )
}
