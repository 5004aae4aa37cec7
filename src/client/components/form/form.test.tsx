import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { idSchema } from '#contract/common'
import { AppProvider } from '#client/app/provider'
import { toApiError } from '#client/lib/api-client'
import { createTestQueryClient, queryToasts } from '#client/testing/render'
import { Field } from './field'
import { PendingButton } from './pending-button'
import { showServerError, type ServerErrorOptions } from './server-error'
import { type SchemaSource, useContractForm } from './use-contract-form'
import { withMessage } from './with-message'

describe('Field', () => {
  it('labels an input and reads its hint and error with it', () => {
    render(<Field label="username" hint="3–24 letters." error="Username is taken" />)
    const input = screen.getByRole('textbox', { name: 'username' })
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription('3–24 letters. Username is taken')
  })

  it('is neither invalid nor described when it has nothing to say', () => {
    render(<Field label="city" />)
    const input = screen.getByRole('textbox', { name: 'city' })
    expect(input).not.toHaveAttribute('aria-invalid')
    expect(input).not.toHaveAttribute('aria-describedby')
  })

  it('does the same for a text area and a select', () => {
    render(
      <>
        <Field as="textarea" label="note" error="Note must be less than 500 characters" />
        <Field as="select" label="location" hint="Where it meets." error="Please choose">
          <option value="zoom">zoom</option>
        </Field>
      </>,
    )
    const note = screen.getByRole('textbox', { name: 'note' })
    expect(note.tagName).toBe('TEXTAREA')
    expect(note).toHaveAttribute('aria-invalid', 'true')
    expect(note).toHaveAccessibleDescription('Note must be less than 500 characters')
    const location = screen.getByRole('combobox', { name: 'location' })
    expect(location).toHaveAttribute('aria-invalid', 'true')
    expect(location).toHaveAccessibleDescription('Where it meets. Please choose')
  })

  it('keeps a hidden label as the name, and a description the caller points at', () => {
    render(
      <>
        <p id="group-rule">Choose three different podclubs</p>
        <Field
          label="podclub ID 1"
          hideLabel
          type="number"
          placeholder="podclub ID 1"
          aria-describedby="group-rule"
          aria-invalid
        />
      </>,
    )
    const input = screen.getByRole('spinbutton', { name: 'podclub ID 1' })
    expect(input).toHaveAccessibleDescription('Choose three different podclubs')
    expect(input).toHaveAttribute('aria-invalid', 'true')
  })
})

describe('PendingButton', () => {
  it('submits, and while pending is disabled and reads its pending label', () => {
    const { rerender } = render(
      <PendingButton isPending={false} pendingLabel="[ sending… ]">
        [ send ]
      </PendingButton>,
    )
    const button = screen.getByRole('button', { name: '[ send ]' })
    expect(button).toHaveAttribute('type', 'submit')
    expect(button).toBeEnabled()
    rerender(
      <PendingButton isPending pendingLabel="[ sending… ]">
        [ send ]
      </PendingButton>,
    )
    expect(screen.getByRole('button', { name: '[ sending… ]' })).toBeDisabled()
  })

  it('keeps its label when it has no pending one, and stays disabled by its own rule', () => {
    const { rerender } = render(
      <PendingButton isPending disabled={false}>
        Mark Complete
      </PendingButton>,
    )
    expect(screen.getByRole('button', { name: 'Mark Complete' })).toBeDisabled()
    rerender(
      <PendingButton isPending={false} disabled>
        Mark Complete
      </PendingButton>,
    )
    expect(screen.getByRole('button', { name: 'Mark Complete' })).toBeDisabled()
  })
})

const testSchema = z.object({
  email: z.string().trim().min(1, 'Email is required'),
  code: z.string(),
  note: z.string(),
})
type TestValues = z.input<typeof testSchema>

/** A form of three fields whose "send" answers with `error`, as a failed request would. */
function TestForm({
  error,
  options,
  onValid = () => {},
  schema = testSchema,
}: {
  error: unknown
  options: ServerErrorOptions<TestValues>
  onValid?: (values: z.output<typeof testSchema>) => void
  schema?: SchemaSource<typeof testSchema>
}) {
  const form = useContractForm(schema, { defaultValues: { email: '', code: '', note: '' } })
  const { errors } = form.formState
  const handleSubmit = form.handleSubmit((values) => {
    onValid(values)
    showServerError(form, error, options)
  })
  return (
    <form noValidate onSubmit={handleSubmit}>
      <Field label="email" error={errors.email?.message} {...form.register('email')} />
      <Field label="code" error={errors.code?.message} {...form.register('code')} />
      <Field as="textarea" label="note" error={errors.note?.message} {...form.register('note')} />
      <button type="submit">send</button>
    </form>
  )
}

async function sendWith(error: unknown, options: ServerErrorOptions<TestValues>) {
  const user = userEvent.setup()
  render(
    <AppProvider queryClient={createTestQueryClient()}>
      <TestForm error={error} options={options} />
    </AppProvider>,
  )
  await user.type(screen.getByLabelText('email'), 'ada@example.com')
  await user.click(screen.getByRole('button', { name: 'send' }))
  await waitFor(() => expect(queryToasts()).toHaveLength(1))
  return user
}

describe('useContractForm', () => {
  it("shows the schema's message, focused, and sends nothing while the form is invalid", async () => {
    const user = userEvent.setup()
    const onValid = vi.fn()
    render(<TestForm error={null} options={{ title: 'x' }} onValid={onValid} />)
    await user.click(screen.getByRole('button', { name: 'send' }))
    const email = screen.getByLabelText('email')
    expect(email).toHaveAccessibleDescription('Email is required')
    expect(email).toHaveFocus()
    expect(onValid).not.toHaveBeenCalled()
  })

  it("hands over the schema's output, not the raw text", async () => {
    const user = userEvent.setup()
    const onValid = vi.fn()
    render(
      <AppProvider queryClient={createTestQueryClient()}>
        <TestForm error={null} options={{ title: 'x' }} onValid={onValid} />
      </AppProvider>,
    )
    await user.type(screen.getByLabelText('email'), '  ada@example.com ')
    await user.click(screen.getByRole('button', { name: 'send' }))
    await waitFor(() => expect(onValid).toHaveBeenCalledTimes(1))
    expect(onValid.mock.calls[0]?.[0]).toEqual({ email: 'ada@example.com', code: '', note: '' })
  })
})

describe('useContractForm with a schema that loads', () => {
  it("loads it on the person's first tap, once, and checks with it", async () => {
    const user = userEvent.setup()
    const load = vi.fn(() => Promise.resolve(testSchema))
    render(<TestForm error={null} options={{ title: 'x' }} schema={load} />)
    expect(load).not.toHaveBeenCalled()
    await user.click(screen.getByLabelText('email'))
    expect(load).toHaveBeenCalledTimes(1)
    await user.click(screen.getByRole('button', { name: 'send' }))
    expect(screen.getByLabelText('email')).toHaveAccessibleDescription('Email is required')
    expect(load).toHaveBeenCalledTimes(1)
  })

  it('counts the untouched form not yet valid without loading the schema, and checks it once touched', async () => {
    const user = userEvent.setup()
    const load = vi.fn(() => Promise.resolve(testSchema))
    function ValidityForm() {
      const form = useContractForm(load, {
        defaultValues: { email: '', code: '', note: '' },
        mode: 'onChange',
      })
      return (
        <form noValidate>
          <Field label="email" {...form.register('email')} />
          <p>{form.formState.isValid ? 'valid' : 'not valid'}</p>
        </form>
      )
    }
    render(<ValidityForm />)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(load).not.toHaveBeenCalled()
    expect(screen.getByText('not valid')).toBeInTheDocument()
    await user.type(screen.getByLabelText('email'), 'ada@example.com')
    expect(load).toHaveBeenCalledTimes(1)
    expect(await screen.findByText('valid')).toBeInTheDocument()
  })

  it('a form sent before the schema has come is checked once it comes', async () => {
    let arrive: (schema: typeof testSchema) => void = () => {}
    const load = () => new Promise<typeof testSchema>((resolve) => (arrive = resolve))
    const onValid = vi.fn()
    render(<TestForm error={null} options={{ title: 'x' }} schema={load} onValid={onValid} />)
    fireEvent.submit(screen.getByRole('button', { name: 'send' }).closest('form')!)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(screen.getByLabelText('email')).not.toHaveAccessibleDescription('Email is required')
    arrive(testSchema)
    await waitFor(() =>
      expect(screen.getByLabelText('email')).toHaveAccessibleDescription('Email is required'),
    )
    expect(onValid).not.toHaveBeenCalled()
  })
})

describe('showServerError', () => {
  it("puts each field's first message under it, focuses the first in the form's order, and toasts", async () => {
    await sendWith(
      toApiError(400, {
        note: ['Note must be less than 500 characters', 'a second message'],
        email: ['Please enter a valid email address'],
      }),
      { title: 'Failed to Send Invite' },
    )
    const email = screen.getByLabelText('email')
    const note = screen.getByLabelText('note')
    expect(email).toHaveAccessibleDescription('Please enter a valid email address')
    expect(email).toHaveAttribute('aria-invalid', 'true')
    expect(note).toHaveAccessibleDescription('Note must be less than 500 characters')
    expect(email).toHaveFocus()
    expect(screen.getByLabelText('code')).not.toHaveAttribute('aria-invalid')
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('Failed to Send Invite')
    // The global rules pick the first field message of the body for the toast.
    expect(toast).toHaveTextContent('Note must be less than 500 characters')
  })

  it('finds a field the API names differently', async () => {
    await sendWith(toApiError(400, { emailAddress: ['Please enter a valid email address'] }), {
      title: 'Failed',
      fields: { emailAddress: 'email' },
    })
    expect(screen.getByLabelText('email')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    )
  })

  it('leaves what belongs to no field of the form to the toast', async () => {
    await sendWith(
      toApiError(400, { phone: ['Please enter a valid phone number'], non_field_errors: [] }),
      { title: 'Failed to Send Invite' },
    )
    for (const label of ['email', 'code', 'note'])
      expect(screen.getByLabelText(label)).not.toHaveAttribute('aria-invalid')
    expect(queryToasts()[0]).toHaveTextContent('Please enter a valid phone number')
  })

  it("puts a known error code on its field with the error's message", async () => {
    await sendWith(
      toApiError(409, {
        detail: 'This invite code has already been used',
        code: 'INVITE_CODE_USED',
      }),
      { title: 'Failed to create account', codes: { INVITE_CODE_USED: 'code' } },
    )
    expect(screen.getByLabelText('code')).toHaveAccessibleDescription(
      'This invite code has already been used',
    )
    expect(screen.getByLabelText('code')).toHaveFocus()
    expect(queryToasts()[0]).toHaveTextContent('This invite code has already been used')
  })

  it('lets a form word the toast from the error', async () => {
    await sendWith(toApiError(400, { detail: 'Already on the list.' }), {
      title: 'Error!',
      description: (error) => `Failed to join the waitlist. ${error.message}`,
    })
    expect(queryToasts()[0]).toHaveTextContent('Failed to join the waitlist. Already on the list.')
  })

  it("shows 'An error occurred' rather than the text of an error that is not the API's", async () => {
    await sendWith(new TypeError("Cannot read properties of undefined (reading 'id')"), {
      title: 'Failed to Submit',
    })
    const [toast] = queryToasts()
    expect(toast).toHaveTextContent('An error occurred')
    expect(toast).not.toHaveTextContent('Cannot read')
  })
})

describe('withMessage', () => {
  const podclubId = withMessage(idSchema, 'Enter a podclub ID number')

  it("gives the contract schema's output for a value it accepts", () => {
    expect(podclubId.parse('7')).toBe(7)
  })

  it("words every refusal of the contract's rule in the form's message", () => {
    for (const value of ['', '0', '-3', '1.5', 'seven']) {
      const result = podclubId.safeParse(value)
      expect(result.success).toBe(false)
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        'Enter a podclub ID number',
      ])
    }
  })
})
