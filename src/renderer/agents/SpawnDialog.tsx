import { useId, useState, type KeyboardEvent } from 'react'
import { defaultPermissionChoice, PermissionFields } from './PermissionFields'
import { NAME_RULE, RESERVED_NAMES, nameProblem } from '../../shared/names'
import { useAppStore } from '../store/context'
import type { SpawnPrefill } from '../store/ui'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { Field } from '../ui/Field'
import { fieldsFromChoice, ModelFields, readModelFields } from './ModelFields'
import { statusLook } from '../ui/status'
import { useCommand } from '../ui/useCommand'
import { WorktreeField } from './WorktreeField'
import { EngineField } from './EngineField'
import { DEFAULT_ENGINE, type EngineName } from '../../shared/engine'
import { own } from '../../shared/own'
import type { ModelChoice } from '../../shared/model-choice'

/** Why `name` cannot be spawned, or null: the shared name rule, then the reserved identities. */
export function spawnNameProblem(name: string): string | null {
  const problem = nameProblem(name)
  if (problem !== null) return problem
  if (RESERVED_NAMES.includes(name))
    return `"${name}" is reserved (${RESERVED_NAMES.join(', ')}) and cannot be spawned`
  return null
}

/** Spawn a teammate by click: the name is checked as it is typed, Enter submits, Esc closes. */
export function SpawnDialog({ prefill }: { readonly prefill: SpawnPrefill | null }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const spawn = useAppStore((state) => state.spawn)
  const defaultModel = useAppStore((state) => state.defaultModel ?? state.settings?.model ?? null)
  const [name, setName] = useState(prefill?.name ?? '')
  const [role, setRole] = useState(prefill?.role ?? '')
  const [prompt, setPrompt] = useState('')
  const [modelFields, setModelFields] = useState(() => fieldsFromChoice(prefill))
  const [planFirst, setPlanFirst] = useState(false)
  /** Its own worktree, when the person changed the team's default; null: the default. */
  const [worktree, setWorktree] = useState<boolean | null>(null)
  const [autoClaim, setAutoClaim] = useState(false)
  const serverNames = useAppStore(
    (state) => state.mcp?.servers.map((server) => server.name).join('\n') ?? '',
  )
  const servers = serverNames === '' ? [] : serverNames.split('\n')
  // Servers left out of the teammate's tools; none by default (every server).
  const [withoutServers, setWithoutServers] = useState<readonly string[]>([])
  const [permissions, setPermissions] = useState(defaultPermissionChoice)
  /** The engine the person chose; null: untouched (builtin, or a re-spawn's own). */
  const [engine, setEngine] = useState<EngineName | null>(null)
  const [submitted, setSubmitted] = useState(false)
  const existing = useAppStore((state) => own(state.agents, name.trim()))
  const command = useCommand(spawn)
  const ids = {
    name: useId(),
    role: useId(),
    prompt: useId(),
    rule: useId(),
    planFirst: useId(),
    autoClaim: useId(),
  }

  const trimmedName = name.trim()
  const problem = spawnNameProblem(trimmedName)
  const showProblem = problem !== null && (trimmedName.length > 0 || submitted)
  const roleMissing = role.trim().length === 0
  const promptMissing = prompt.trim().length === 0
  const modelChoice = readModelFields(modelFields)

  async function submit(): Promise<void> {
    setSubmitted(true)
    if (problem !== null || roleMissing || promptMissing || command.pending) return
    if (!modelChoice.ok) return
    const outcome = await command.run({
      name: trimmedName,
      role: role.trim(),
      prompt: prompt.trim(),
      ...choiceParams(modelChoice.choice, prefill !== null),
      ...(planFirst ? { planFirst: true } : {}),
      ...(worktree === null ? {} : { worktree }),
      ...(autoClaim ? { autoClaim: true } : {}),
      ...(withoutServers.length > 0
        ? { mcpServers: servers.filter((server) => !withoutServers.includes(server)) }
        : {}),
      // Left out when untouched: a new teammate gets implementer, a re-spawn keeps its own.
      ...(permissions.profile === defaultPermissionChoice.profile
        ? {}
        : { profile: permissions.profile }),
      ...(permissions.approval === null ? {} : { approval: permissions.approval }),
      ...(engine === null ? {} : { engine }),
    })
    if (outcome.ok) closeDialog()
  }

  function onKeyDown(event: KeyboardEvent<HTMLFormElement>): void {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return
    const target = event.target
    if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) return
    event.preventDefault()
    void submit()
  }

  const respawn = existing !== undefined && trimmedName !== 'lead'
  return (
    <Dialog
      title={prefill ? `Re-spawn ${prefill.name}` : 'Spawn a teammate'}
      description="A teammate is a persistent agent with its own loop, transcript and inbox. It starts on the first prompt and then wakes whenever a message arrives."
      onClose={closeDialog}
    >
      <form
        className="form"
        noValidate
        onKeyDown={onKeyDown}
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        <Field
          id={ids.name}
          label="Name"
          messageId={ids.rule}
          announce
          hint={`Rule: ${NAME_RULE}; "lead" and "user" are reserved.`}
          error={showProblem ? `${capitalize(problem)}: ${NAME_RULE}.` : null}
          after={
            respawn && !showProblem ? (
              <p className={existing.status === 'working' ? 'field-error' : 'field-note'}>
                {existing.status === 'working'
                  ? `${trimmedName} is working right now: stop it or wait until it is idle.`
                  : `${trimmedName} exists (${statusLook(existing.status).label.toLowerCase()}): it keeps its identity and transcript and takes the new role.`}
              </p>
            ) : null
          }
        >
          <input
            id={ids.name}
            data-autofocus
            value={name}
            autoComplete="off"
            spellCheck={false}
            placeholder="alice"
            aria-invalid={showProblem}
            aria-describedby={ids.rule}
            onChange={(event) => setName(event.target.value)}
          />
        </Field>
        <Field
          id={ids.role}
          label="Role"
          error={submitted && roleMissing ? 'Give it a role.' : null}
        >
          <input
            id={ids.role}
            value={role}
            placeholder="coder, tester, reviewer…"
            aria-invalid={submitted && roleMissing}
            onChange={(event) => setRole(event.target.value)}
          />
        </Field>
        <Field
          id={ids.prompt}
          label="First prompt"
          error={submitted && promptMissing ? 'Tell it what to do first.' : null}
        >
          <textarea
            id={ids.prompt}
            value={prompt}
            rows={4}
            placeholder="What should it do first? (Shift+Enter for a new line)"
            aria-invalid={submitted && promptMissing}
            onChange={(event) => setPrompt(event.target.value)}
          />
        </Field>
        <ModelFields
          value={modelFields}
          onChange={setModelFields}
          defaultModel={defaultModel}
          showProblems={submitted}
        />
        <EngineField
          value={engine}
          current={existing?.engine ?? DEFAULT_ENGINE}
          onChange={setEngine}
        />
        <PermissionFields value={permissions} onChange={setPermissions} />
        <label className="toggle" htmlFor={ids.planFirst}>
          <input
            id={ids.planFirst}
            type="checkbox"
            checked={planFirst}
            onChange={(event) => setPlanFirst(event.target.checked)}
          />
          <span className="toggle-text">
            <span>Plan first</span>
            <span className="field-hint">
              It submits a plan and waits for your approval (or the lead’s) before it may run
              commands or change files.
            </span>
          </span>
        </label>
        <WorktreeField name={trimmedName} value={worktree} onChange={setWorktree} />
        <label className="toggle" htmlFor={ids.autoClaim}>
          <input
            id={ids.autoClaim}
            type="checkbox"
            checked={autoClaim}
            onChange={(event) => setAutoClaim(event.target.checked)}
          />
          <span className="toggle-text">
            <span>Auto-claim tasks</span>
            <span className="field-hint">
              When idle, it takes the next unblocked task from the board that fits its role, and
              tells the lead.
            </span>
          </span>
        </label>
        {servers.length > 0 ? (
          <fieldset className="field mcp-choice">
            <legend>MCP servers it may use</legend>
            {servers.map((server) => (
              <label key={server} className="toggle">
                <input
                  type="checkbox"
                  checked={!withoutServers.includes(server)}
                  onChange={(event) =>
                    setWithoutServers((current) =>
                      event.target.checked
                        ? current.filter((item) => item !== server)
                        : [...current, server],
                    )
                  }
                />
                <span className="toggle-text">{server}</span>
              </label>
            ))}
          </fieldset>
        ) : null}
        <InlineError error={command.error} />
        <DialogFooter
          leading={
            <span className="muted small">
              <kbd>Enter</kbd> spawns · <kbd>Esc</kbd> closes
            </span>
          }
          cancel={{ label: 'Cancel', onClick: closeDialog }}
          action={{
            label: respawn ? `Re-spawn ${trimmedName}` : 'Spawn',
            pending: command.pending,
            pendingLabel: 'Spawning…',
          }}
        />
      </form>
    </Dialog>
  )
}

/**
 * The model fields of a spawn. From the roster's Re-spawn the fields start as the member's
 * choice, so both are sent: an emptied field means "back to the team's model". Otherwise what
 * is at its default is left out, and a re-spawn by name keeps the member's choice.
 */
function choiceParams(
  choice: ModelChoice,
  explicit: boolean,
): { model?: string | null; thinking?: number | null } {
  return {
    ...(explicit || choice.model !== null ? { model: choice.model } : {}),
    ...(explicit || choice.thinking !== null ? { thinking: choice.thinking } : {}),
  }
}

function capitalize(text: string | null): string {
  if (text === null) return ''
  return text.charAt(0).toUpperCase() + text.slice(1)
}
