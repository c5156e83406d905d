import { useId, useState } from 'react'
import { assertNever } from '../../shared/errors'
import { useAppStore } from '../store/context'
import type { ProtocolRequest, SentReview } from '../store/state'
import { Markdown } from '../ui/markdown/Markdown'
import { InlineError } from '../ui/Dialog'
import { useCommand } from '../ui/useCommand'
import { own } from '../../shared/own'

/**
 * A plan a plan-first teammate submitted: until it is approved, the runtime refuses the
 * teammate's bash, file writes and MCP tools. The person approves it, or rejects it with
 * feedback (the teammate then writes a new plan, with a new id).
 */
export function PlanCard({
  request,
  dismissible = false,
}: {
  readonly request: ProtocolRequest
  /** A settled card the person may take out of the lead chat. */
  readonly dismissible?: boolean
}) {
  const sent = useAppStore((state) => own(state.sentReviews, request.id))
  const dismissReview = useAppStore((state) => state.dismissReview)
  const settled = request.status !== 'pending'
  return (
    <article
      className={`plan-card plan-${request.status}`}
      data-testid={`plan-${request.id}`}
      aria-label={`Plan from ${request.from}`}
    >
      <header className="plan-header">
        <span className="plan-title">Plan from {request.from}</span>
        <span className={`plan-state plan-state-${request.status}`}>
          {planStateLabel(request.status)}
        </span>
        {dismissible && settled ? (
          <button
            type="button"
            className="icon-button"
            aria-label={`Dismiss the plan from ${request.from}`}
            onClick={() => dismissReview(request.id)}
          >
            ×
          </button>
        ) : null}
      </header>
      {settled ? (
        <details className="plan-details">
          <summary>Show the plan</summary>
          <PlanText plan={request.plan} />
        </details>
      ) : (
        <PlanText plan={request.plan} />
      )}
      {settled ? (
        <Outcome request={request} />
      ) : sent !== undefined ? (
        <SentAnswer sent={sent} teammate={request.from} />
      ) : (
        <ReviewControls request={request} />
      )}
    </article>
  )
}

function planStateLabel(status: ProtocolRequest['status']): string {
  switch (status) {
    case 'pending':
      return 'Waiting for approval'
    case 'approved':
      return 'Approved'
    case 'rejected':
      return 'Rejected'
    default:
      return assertNever(status, 'request status')
  }
}

function PlanText({ plan }: { readonly plan: string | null }) {
  return (
    <div className="plan-text">
      {plan ? <Markdown text={plan} /> : <p className="muted">(The plan has no text.)</p>}
    </div>
  )
}

function Outcome({ request }: { readonly request: ProtocolRequest }) {
  const approved = request.status === 'approved'
  return (
    <p className={approved ? 'plan-outcome plan-outcome-approved' : 'plan-outcome'}>
      {approved
        ? `${request.from} may now change files and run commands.`
        : `${request.from} writes a new plan.`}
      {request.reason ? <span className="plan-feedback"> Feedback: {request.reason}</span> : null}
    </p>
  )
}

function SentAnswer({ sent, teammate }: { readonly sent: SentReview; readonly teammate: string }) {
  return (
    <p className="plan-outcome" role="status">
      You {sent.approve ? 'approved' : 'rejected'} this plan; it settles when {teammate} reads your
      answer.
    </p>
  )
}

function ReviewControls({ request }: { readonly request: ProtocolRequest }) {
  const reviewPlan = useAppStore((state) => state.reviewPlan)
  const command = useCommand(reviewPlan)
  const [rejecting, setRejecting] = useState(false)
  const [feedback, setFeedback] = useState('')
  const [submitted, setSubmitted] = useState(false)
  const ids = { feedback: useId(), hint: useId() }
  const missing = feedback.trim().length === 0

  function reject(): void {
    setSubmitted(true)
    if (missing) return
    void command.run({ requestId: request.id, approve: false, feedback: feedback.trim() })
  }

  if (!rejecting) {
    return (
      <div className="plan-actions">
        <button
          type="button"
          className="button button-primary"
          disabled={command.pending}
          onClick={() => void command.run({ requestId: request.id, approve: true })}
        >
          {command.pending ? 'Approving…' : 'Approve'}
        </button>
        <button
          type="button"
          className="button"
          disabled={command.pending}
          onClick={() => {
            command.clearError()
            setRejecting(true)
          }}
        >
          Reject
        </button>
        <InlineError error={command.error} />
      </div>
    )
  }
  return (
    <form
      className="plan-reject"
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        reject()
      }}
    >
      <label htmlFor={ids.feedback}>Feedback for {request.from}</label>
      <textarea
        id={ids.feedback}
        autoFocus
        rows={3}
        value={feedback}
        placeholder="What should the new plan change?"
        aria-invalid={submitted && missing}
        aria-describedby={ids.hint}
        onChange={(event) => setFeedback(event.target.value)}
      />
      <p id={ids.hint} className={submitted && missing ? 'field-error' : 'field-hint'}>
        {submitted && missing
          ? 'Say what should change: the feedback is what the new plan is written from.'
          : `${request.from} gets it and writes a new plan.`}
      </p>
      <div className="plan-actions">
        <button type="submit" className="button button-danger" disabled={command.pending}>
          {command.pending ? 'Sending…' : 'Send rejection'}
        </button>
        <button
          type="button"
          className="button"
          disabled={command.pending}
          onClick={() => setRejecting(false)}
        >
          Cancel
        </button>
      </div>
      <InlineError error={command.error} />
    </form>
  )
}
