// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { DialogFooter } from '../../../src/renderer/ui/DialogFooter'
import { Field } from '../../../src/renderer/ui/Field'
import { failOnConsoleErrors } from './render-app'

failOnConsoleErrors()

describe('Field', () => {
  it('names its control and says its hint under it, with the id the control points at', () => {
    render(
      <Field id="budget" label="Budget" hint="Empty: no limit." messageId="budget-hint">
        <input id="budget" aria-describedby="budget-hint" />
      </Field>,
    )
    const input = screen.getByLabelText('Budget')
    expect(input).toHaveAccessibleDescription('Empty: no limit.')
    expect(screen.getByText('Empty: no limit.')).toHaveClass('field-hint')
  })

  it('puts the error in the hint’s place, announced only when asked', () => {
    const { rerender } = render(
      <Field id="name" label="Name" hint="Rule: letters." error="Too long." messageId="rule">
        <input id="name" aria-describedby="rule" />
      </Field>,
    )
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Too long.')
    expect(screen.getByText('Too long.')).toHaveClass('field-error')
    expect(screen.queryByText('Rule: letters.')).not.toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()

    rerender(
      <Field id="name" label="Name" hint="Rule: letters." error="Too long." announce>
        <input id="name" />
      </Field>,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('Too long.')
  })

  it('keeps the order label, control, message, then what comes after', () => {
    const { container } = render(
      <Field id="key" label="Key" hint="Kept safe." after={<button type="button">Remove</button>}>
        <input id="key" />
      </Field>,
    )
    const field = container.querySelector('.field') as HTMLElement
    expect([...field.children].map((child) => child.tagName)).toEqual([
      'LABEL',
      'INPUT',
      'P',
      'BUTTON',
    ])
  })
})

describe('DialogFooter', () => {
  it('puts the way out first and the action last, with what comes between', () => {
    const close = vi.fn()
    render(
      <DialogFooter
        leading={<span className="muted">Enter saves</span>}
        cancel={{ label: 'Cancel', onClick: close, autoFocus: true }}
        action={{ label: 'Delete', tone: 'danger', onClick: vi.fn() }}
      >
        <button type="button">Keep</button>
      </DialogFooter>,
    )
    const buttons = screen.getAllByRole('button')
    expect(buttons.map((button) => button.textContent)).toEqual(['Cancel', 'Keep', 'Delete'])
    expect(buttons[0]).toHaveAttribute('data-autofocus')
    expect(buttons[0]).toHaveAttribute('type', 'button')
    expect(buttons[2]).toHaveClass('button', 'button-danger')
    expect(screen.getByText('Enter saves').nextElementSibling).toBe(buttons[0])
    fireEvent.click(buttons[0] as HTMLElement)
    expect(close).toHaveBeenCalledOnce()
  })

  it('submits its form from an action without a click handler, and is held while pending', () => {
    const submit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault())
    const { rerender } = render(
      <form onSubmit={submit}>
        <DialogFooter action={{ label: 'Save', pending: false, pendingLabel: 'Saving…' }} />
      </form>,
    )
    const save = screen.getByRole('button', { name: 'Save' })
    expect(save).toHaveAttribute('type', 'submit')
    expect(save).toHaveClass('button-primary')
    fireEvent.click(save)
    expect(submit).toHaveBeenCalledOnce()

    rerender(
      <form onSubmit={submit}>
        <DialogFooter action={{ label: 'Save', pending: true, pendingLabel: 'Saving…' }} />
      </form>,
    )
    expect(screen.getByRole('button', { name: 'Saving…' })).toBeDisabled()
  })
})
