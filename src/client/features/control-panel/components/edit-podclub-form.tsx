import { useId } from 'react'
import { z } from 'zod'
import {
  CLUB_TIME_ABBREVIATION,
  CLUB_TIME_MESSAGES,
  clubDateTimeOfInput,
} from '#contract/club-time'
import { updatePodclubBodySchema, type ControlPanelPodclub } from '#contract/control-panel'
import { Field, FieldError } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { formErrorOf, showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useUpdatePodclub } from '../api/update-podclub'
import { podclubIdInput } from '../lib/podclub-id-input'

type Values = { id: string; startsAt: string; location: string; zoomLink: string; status: string }
const EMPTY: Values = { id: '', startsAt: '', location: '', zoomLink: '', status: '' }

/** The form's name of each field of the update body that has another name here. */
const API_FIELDS = { scheduledStart: 'startsAt' } as const

/**
 * What the operator typed, as the id and the contract's update body: an empty field stays as it
 * is, and the date is the New York wall time the field shows. Every problem shows at once.
 */
const editPodclubFormSchema = z
  .object({
    id: z.string(),
    startsAt: z.string(),
    location: z.string(),
    zoomLink: z.string(),
    status: z.string(),
  })
  .transform((values, ctx) => {
    const fail = (field: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [field], message })
    const podclubId = podclubIdInput.safeParse(values.id)
    if (!podclubId.success) fail('id', podclubId.error.issues[0]?.message ?? '')
    const scheduledStart = values.startsAt
      ? (clubDateTimeOfInput(values.startsAt) ?? undefined)
      : undefined
    if (values.startsAt && !scheduledStart) fail('startsAt', CLUB_TIME_MESSAGES.required)
    const body = updatePodclubBodySchema.safeParse({
      scheduledStart,
      location: values.location || undefined,
      zoomLink: values.zoomLink.trim() || undefined,
      status: values.status || undefined,
    })
    if (!body.success) {
      for (const issue of body.error.issues) {
        const key = String(issue.path[0] ?? 'non_field_errors')
        fail(API_FIELDS[key as keyof typeof API_FIELDS] ?? key, issue.message)
      }
    }
    // Any issue above fails the parse; the value returned then is never read.
    if (!podclubId.success || !body.success) return z.NEVER
    return { id: podclubId.data, body: body.data }
  })

/** Changes the date, location, Zoom link or status of any podclub; empty fields stay as they are. */
export function EditPodclubForm({ podclubs }: { podclubs: ControlPanelPodclub[] }) {
  const id = useId()
  const form = useContractForm(editPodclubFormSchema, { defaultValues: EMPTY })
  const { errors } = form.formState
  const formError = formErrorOf(errors)
  const update = useUpdatePodclub()

  const handleSubmit = form.handleSubmit((change) =>
    update.mutate(change, {
      onSuccess: (row) => {
        toast({ title: 'podclub updated', description: `${row.episode_title} (ID ${row.id})` })
        form.reset()
      },
      onError: (error) =>
        showServerError(form, error, { title: 'Failed to update podclub', fields: API_FIELDS }),
    }),
  )

  const listId = `${id}-podclubs`

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <p className="text-sm text-ink-muted">Fill in only what changes.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="podclub ID"
          type="number"
          inputMode="numeric"
          min={1}
          list={listId}
          error={errors.id?.message}
          {...form.register('id')}
        />
        <datalist id={listId}>
          {podclubs.map((p) => (
            <option key={p.id} value={p.id}>
              {p.episode_title}
            </option>
          ))}
        </datalist>
        <Field
          label={`new date and time (${CLUB_TIME_ABBREVIATION})`}
          type="datetime-local"
          step={1800}
          error={errors.startsAt?.message}
          {...form.register('startsAt')}
        />
        <Field
          as="select"
          label="location"
          error={errors.location?.message}
          {...form.register('location')}
        >
          <option value="">unchanged</option>
          <option value="zoom">Zoom</option>
          <option value="nyc">NYC</option>
        </Field>
        <Field
          as="select"
          label="status"
          error={errors.status?.message}
          {...form.register('status')}
        >
          <option value="">unchanged</option>
          <option value="upcoming">upcoming</option>
          <option value="completed">completed</option>
          <option value="cancelled">cancelled</option>
        </Field>
        <Field
          label="Zoom link"
          type="url"
          inputMode="url"
          placeholder="https://zoom.us/j/…"
          className="sm:col-span-2"
          error={errors.zoomLink?.message}
          {...form.register('zoomLink')}
        />
      </div>
      <FieldError id={`${id}-form-error`} message={formError} />
      <PendingButton isPending={update.isPending} className="justify-self-start">
        [ save podclub ]
      </PendingButton>
    </form>
  )
}
