import type { ReactNode } from 'react'
import type {
  GrantChange,
  McpServerGrant,
  NamedValue,
  ShownValue,
  TrustView,
} from '../../shared/trust'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { useCommand } from '../ui/useCommand'

/**
 * The trust question: everything the workspace grants its agents, in full (nothing cut short;
 * the body scrolls), each value as written and as it runs, secrets and changes marked. Asked
 * when a workspace the person has not trusted opens, and again from the banner after "Not now".
 */
export function TrustDialog() {
  const view = useAppStore((state) => state.trust)
  const asDialog = useAppStore((state) => state.dialog?.kind === 'trust')
  const closeDialog = useAppStore((state) => state.closeDialog)
  const answer = useCommand(useAppStore((state) => state.trustWorkspace))
  if (view === null) return null

  async function decide(trust: boolean): Promise<void> {
    const outcome = await answer.run(trust)
    if (outcome.ok && asDialog) closeDialog()
  }
  const notNow = (): void => {
    if (view.trusted || view.declined) closeDialog()
    else void decide(false)
  }
  return (
    <Dialog
      title={view.trusted ? 'What this workspace grants' : 'Trust this workspace?'}
      description={<Standing view={view} />}
      onClose={notNow}
      wide
    >
      <Grants view={view} />
      <InlineError error={answer.error} />
      <DialogFooter
        cancel={{ label: view.trusted ? 'Close' : 'Not now', onClick: notNow, autoFocus: true }}
        action={
          view.trusted
            ? undefined
            : {
                label: 'Trust this workspace',
                disabled: answer.pending,
                onClick: () => void decide(true),
              }
        }
      />
    </Dialog>
  )
}

function Standing({ view }: { readonly view: TrustView }) {
  const until =
    'Until you trust it, no MCP server starts, no host is allowed, no “approve always” rule applies, custom profiles are not used, no scheduled run fires, and no agent wakes but by your own message.'
  switch (view.reason) {
    case 'made-here':
      return <p>Trusted: Agent Teams made its .team/, and it grants nothing you did not add.</p>
    case 'agreed':
      return <p>Trusted: you agreed to what it grants.</p>
    case 'for-this-run':
      return <p>Trusted for this run (--trust-workspace).</p>
    case 'no-record':
      return (
        <>
          <p>
            <code>{view.workspace}</code> came with its own .team/, which this app did not make and
            you never agreed to: it may be a cloned repository, or a team from before this version
            of Agent Teams. Read what it grants before you trust it.
          </p>
          <p>{until}</p>
        </>
      )
    case 'not-reviewed':
      return (
        <>
          <p>
            Agent Teams made the team’s .team/ in <code>{view.workspace}</code>, but the folder
            grants more that you have not seen: its own .mcp.json, or what was added by hand since.
            The items are marked new.
          </p>
          <p>{until}</p>
        </>
      )
    case 'changed':
      return (
        <>
          <p>
            What <code>{view.workspace}</code> grants changed since you trusted it (a hand edit, a
            git pull, an edited server script): the changes are marked.
          </p>
          <p>{until}</p>
        </>
      )
  }
}

function Grants({ view }: { readonly view: TrustView }) {
  const { grants } = view
  const changes = new Map(view.changes.map((change) => [change.key, change.change]))
  const mark = (key: string): ReactNode => <ChangeMark change={changes.get(key)} />
  const removed = view.changes.filter((change) => change.change === 'removed')
  const empty =
    grants.mcpServers.length +
      grants.files.length +
      grants.allowedHosts.length +
      grants.approveAlways.length +
      grants.profiles.length +
      (grants.checks ?? []).length +
      (grants.schedules ?? []).length ===
    0
  return (
    <div className="trust-grants">
      {empty ? (
        <p className="field-note">
          It grants nothing beyond the defaults. Trusting it lets its agents wake by themselves for
          the mail and work waiting for them.
        </p>
      ) : null}
      {grants.mcpServers.length > 0 ? (
        <Section
          title="MCP servers"
          note="Programs started with your rights, their tools given to the agents."
        >
          {grants.mcpServers.map((server) => (
            <ServerGrant key={server.key} server={server} mark={mark(server.key)} />
          ))}
        </Section>
      ) : null}
      {grants.files.length > 0 ? (
        <Section title="Files the servers run" note="Asked again when one of them changes.">
          {grants.files.map((file) => (
            <li key={file.key} className="trust-item">
              <code>{file.path}</code>
              {file.target === null ? null : (
                <>
                  {' '}
                  → <code>{file.target}</code>
                </>
              )}
              {mark(file.key)}
              <div className="trust-detail">
                sha256 <code>{file.sha256}</code> · {file.bytes} bytes · {file.servers.join(', ')}
              </div>
            </li>
          ))}
        </Section>
      ) : null}
      {grants.allowedHosts.length > 0 ? (
        <Section
          title="Allowed hosts"
          note=".team/sandbox.json: bash and the servers may connect to these."
        >
          {grants.allowedHosts.map((host) => (
            <li key={host.key} className="trust-item">
              <code>{host.host}</code>
              {mark(host.key)}
            </li>
          ))}
        </Section>
      ) : null}
      {grants.approveAlways.length > 0 ? (
        <Section
          title="“Approve always” rules"
          note=".team/needs-you.json: these run without asking you."
        >
          {grants.approveAlways.map((rule) => (
            <li key={rule.key} className="trust-item">
              <strong>{rule.agent}</strong> may{' '}
              {rule.tool === 'bash' ? 'run commands starting' : 'write files under'}{' '}
              <code>{rule.pattern}</code>
              {mark(rule.key)}
            </li>
          ))}
        </Section>
      ) : null}
      {grants.profiles.length > 0 ? (
        <Section title="Custom profiles" note=".team/profiles.json">
          {grants.profiles.map((profile) => (
            <li key={profile.key} className="trust-item">
              <strong>{profile.name}</strong>
              {mark(profile.key)}
              <div className="trust-detail">
                approvals <code>{profile.approval}</code> · tools{' '}
                <code>{profile.tools.join(', ') || 'none'}</code> · MCP tools{' '}
                {profile.mcp ? 'yes' : 'no'}
                {profile.description ? ` · ${profile.description}` : ''}
              </div>
            </li>
          ))}
        </Section>
      ) : null}
      {(grants.checks ?? []).length > 0 ? (
        <Section
          title="Check command"
          note={
            view.sandbox.available
              ? '.team/reactions.json: run after each teammate commit, in its sandbox.'
              : '.team/reactions.json: run after each teammate commit; with no OS sandbox here, each run asks you first.'
          }
        >
          {(grants.checks ?? []).map((check) => (
            <li key={check.key} className="trust-item">
              <code>{check.command}</code>
              {mark(check.key)}
              <div className="trust-detail">killed after {check.timeout_seconds} s</div>
            </li>
          ))}
        </Section>
      ) : null}
      {(grants.schedules ?? []).length > 0 ? (
        <Section
          title="Scheduled runs"
          note=".team/schedules.json: prompts sent to the lead with your key, by themselves."
        >
          {(grants.schedules ?? []).map((schedule) => (
            <li key={schedule.key} className="trust-item">
              <strong>{schedule.name}</strong> {schedule.when}
              {schedule.enabled ? '' : ' (off)'}
              {mark(schedule.key)}
              <div className="trust-detail">
                cap {schedule.cap}
                {schedule.template === null ? '' : ` · template ${schedule.template}`}
              </div>
              <pre className="trust-detail">{schedule.prompt}</pre>
            </li>
          ))}
        </Section>
      ) : null}
      {removed.length > 0 ? (
        <Section title="Gone since you agreed">
          {removed.map((change) => (
            <li key={change.key} className="trust-item">
              {change.label}
            </li>
          ))}
        </Section>
      ) : null}
      <SandboxNote view={view} />
      {view.problems.map((problem) => (
        <p key={problem} className="field-error" role="alert">
          Not read, so nothing in it applies: {problem}
        </p>
      ))}
    </div>
  )
}

function SandboxNote({ view }: { readonly view: TrustView }) {
  if (!view.grants.mcpServers.some((server) => server.transport === 'stdio')) return null
  if (view.sandbox.available)
    return (
      <p className="field-note">
        Stdio servers run in the OS sandbox ({view.sandbox.mechanism}): they write only in the
        workspace, never in .team/, and reach only the allowed hosts.
      </p>
    )
  return (
    <p className="field-error" role="alert">
      There is no OS sandbox here: stdio servers will run with your full rights.{' '}
      {view.sandbox.reason}
    </p>
  )
}

function Section({
  title,
  note,
  children,
}: {
  readonly title: string
  readonly note?: string
  readonly children: ReactNode
}) {
  return (
    <section className="trust-section" aria-label={title}>
      <h3>{title}</h3>
      {note === undefined ? null : <p className="muted small">{note}</p>}
      <ul className="trust-list">{children}</ul>
    </section>
  )
}

function ServerGrant({
  server,
  mark,
}: {
  readonly server: McpServerGrant
  readonly mark: ReactNode
}) {
  return (
    <li className="trust-item" data-server={server.name}>
      <strong>{server.name}</strong>{' '}
      <span className="muted small">
        {server.transport} · {server.source === 'team' ? '.team/mcp.json' : '.mcp.json'}
      </span>
      {mark}
      <dl className="trust-fields">
        {server.transport === 'stdio' ? (
          <>
            <Field label="command">
              <Value shown={server.command} />
            </Field>
            {server.args.map((arg, index) => (
              <Field key={index} label={`arg ${index + 1}`}>
                <Value shown={arg} />
              </Field>
            ))}
            {server.env.map((env) => (
              <Field key={env.name} label={`env ${env.name}`}>
                <Value shown={env} />
              </Field>
            ))}
            <Field label="runs in">
              <code>{server.cwd}</code>
            </Field>
          </>
        ) : (
          <>
            <Field label="url">
              <Value shown={server.url} />
            </Field>
            {server.headers.map((header: NamedValue) => (
              <Field key={header.name} label={`header ${header.name}`}>
                <Value shown={header} />
              </Field>
            ))}
          </>
        )}
      </dl>
    </li>
  )
}

function Field({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </>
  )
}

/** As written; as it runs when `${VAR}` changed it; marked when it is a secret. */
function Value({ shown }: { readonly shown: ShownValue }) {
  return (
    <>
      <code className="trust-value">{shown.written}</code>
      {shown.expanded === shown.written ? null : (
        <>
          {' '}
          <span className="muted small">runs as</span>{' '}
          <code className="trust-value">{shown.expanded}</code>
        </>
      )}
      {shown.secret ? <span className="trust-mark trust-mark-secret">secret</span> : null}
    </>
  )
}

function ChangeMark({ change }: { readonly change: GrantChange['change'] | undefined }) {
  if (change === undefined || change === 'removed') return null
  return <span className={`trust-mark trust-mark-${change}`}>{change}</span>
}
