import { useState } from 'react'
import { LEAD } from '../../shared/names'
import { own } from '../../shared/own'
import { useAppStore } from '../store/context'
import { Dialog, InlineError } from '../ui/Dialog'
import { DialogFooter } from '../ui/DialogFooter'
import { describeModel, fieldsFromChoice, ModelFields, readModelFields } from './ModelFields'
import type { AgentState } from '../store/state'
import { useCommand } from '../ui/useCommand'

/** Changes an agent's model and extended thinking; it uses them from its next turn. */
export function ModelDialog({ name }: { readonly name: string }) {
  const closeDialog = useAppStore((state) => state.closeDialog)
  const setAgentModel = useAppStore((state) => state.setAgentModel)
  const defaultModel = useAppStore((state) => state.defaultModel)
  const agent = useAppStore((state) => own(state.agents, name))
  const [fields, setFields] = useState(() => fieldsFromChoice(agent === undefined ? null : agent))
  const [submitted, setSubmitted] = useState(false)
  const command = useCommand(setAgentModel)
  const who = name === LEAD ? 'the lead' : name

  async function submit(): Promise<void> {
    setSubmitted(true)
    const read = readModelFields(fields)
    if (!read.ok || command.pending) return
    const outcome = await command.run({ name, ...read.choice })
    if (outcome.ok) closeDialog()
  }

  if (agent === undefined) return null
  return (
    <Dialog
      title={`Model of ${who}`}
      description={`${name === LEAD ? 'The lead' : name} uses it from its next model call. A thinking change made while it is in the middle of a tool call waits until that step ends, as the API requires.`}
      onClose={closeDialog}
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        <ModelFields
          value={fields}
          onChange={setFields}
          defaultModel={defaultModel}
          showProblems={submitted}
        />
        <InlineError error={command.error} />
        <DialogFooter
          cancel={{ label: 'Cancel', onClick: closeDialog }}
          action={{ label: 'Save', pending: command.pending, pendingLabel: 'Saving…' }}
        />
      </form>
    </Dialog>
  )
}

/** The agent header's model chip: what it runs on; a click opens the change. */
export function AgentModelButton({ agent }: { readonly agent: AgentState }) {
  const openDialog = useAppStore((state) => state.openDialog)
  const defaultModel = useAppStore((state) => state.defaultModel)
  return (
    <button
      type="button"
      className="button button-ghost button-small agent-model"
      data-testid="agent-model"
      title={`Model and thinking of ${agent.name}: click to change them (from its next turn)`}
      onClick={() => openDialog({ kind: 'model', name: agent.name })}
    >
      {describeModel(agent, defaultModel)}
    </button>
  )
}
