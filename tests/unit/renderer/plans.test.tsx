// @vitest-environment jsdom
import { act, fireEvent, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { agentView, fakeApi, planRequest, rejection, snapshot } from './fake-api'
import { failOnConsoleErrors, renderApp } from './render-app'

failOnConsoleErrors()

const team = snapshot({
  members: [agentView('alice', { status: 'waiting', statusReason: 'waiting for plan approval' })],
  requests: [planRequest()],
})

const card = () => screen.getByRole('article', { name: 'Plan from alice' })

describe('plan approval', () => {
  it('shows a waiting plan in the lead chat, and Approve sends the approval', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    expect(card()).toHaveTextContent('Waiting for approval')
    expect(card()).toHaveTextContent('Add a median function')

    await act(async () => {
      fireEvent.click(within(card()).getByRole('button', { name: 'Approve' }))
    })
    expect(api.reviewPlan).toHaveBeenCalledWith({ requestId: 'plan-1', approve: true })
    expect(card()).toHaveTextContent('You approved this plan; it settles when alice reads')
    expect(within(card()).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument()

    act(() =>
      api.emit([{ type: 'protocol-changed', request: planRequest({ status: 'approved' }) }]),
    )
    expect(card()).toHaveTextContent('Approved')
    expect(card()).toHaveTextContent('alice may now change files and run commands.')
    fireEvent.click(within(card()).getByRole('button', { name: 'Dismiss the plan from alice' }))
    expect(screen.queryByRole('article', { name: 'Plan from alice' })).not.toBeInTheDocument()
  })

  it('Reject asks for feedback, refuses to send without it, then sends it', async () => {
    const api = fakeApi({ snapshot: team })
    await renderApp(api)
    fireEvent.click(within(card()).getByRole('button', { name: 'Reject' }))
    const feedback = within(card()).getByLabelText('Feedback for alice')

    await act(async () => {
      fireEvent.click(within(card()).getByRole('button', { name: 'Send rejection' }))
    })
    expect(api.reviewPlan).not.toHaveBeenCalled()
    expect(feedback).toHaveAttribute('aria-invalid', 'true')
    expect(card()).toHaveTextContent('Say what should change')

    fireEvent.change(feedback, { target: { value: '  Test the median on an empty list first. ' } })
    await act(async () => {
      fireEvent.click(within(card()).getByRole('button', { name: 'Send rejection' }))
    })
    expect(api.reviewPlan).toHaveBeenCalledWith({
      requestId: 'plan-1',
      approve: false,
      feedback: 'Test the median on an empty list first.',
    })
    expect(card()).toHaveTextContent('You rejected this plan')

    act(() =>
      api.emit([
        {
          type: 'protocol-changed',
          request: planRequest({ status: 'rejected', reason: 'Test the median first.' }),
        },
      ]),
    )
    expect(card()).toHaveTextContent('Rejected')
    expect(card()).toHaveTextContent('alice writes a new plan. Feedback: Test the median first.')
  })

  it('shows a failed review on the card and keeps the buttons', async () => {
    const api = fakeApi({ snapshot: team })
    api.reviewPlan.mockRejectedValueOnce(
      rejection('already-settled', 'The plan request plan-1 was already approved.'),
    )
    await renderApp(api)
    await act(async () => {
      fireEvent.click(within(card()).getByRole('button', { name: 'Approve' }))
    })
    expect(within(card()).getByRole('alert')).toHaveTextContent('was already approved')
    expect(within(card()).getByRole('button', { name: 'Approve' })).toBeInTheDocument()
  })

  it('a plan submitted while the window is open appears, in the teammate’s view too', async () => {
    const api = fakeApi({ snapshot: snapshot({ members: [agentView('alice')] }) })
    await renderApp(api)
    expect(screen.queryByRole('article', { name: 'Plan from alice' })).not.toBeInTheDocument()
    act(() => api.emit([{ type: 'protocol-changed', request: planRequest() }]))
    expect(card()).toHaveTextContent('Waiting for approval')

    fireEvent.click(
      within(screen.getByTestId('roster-item-alice')).getByRole('button', {
        name: 'Plan waiting for approval',
      }),
    )
    expect(screen.getByRole('heading', { level: 1, name: 'alice' })).toBeInTheDocument()
    expect(within(card()).getByRole('button', { name: 'Approve' })).toBeInTheDocument()
  })
})
