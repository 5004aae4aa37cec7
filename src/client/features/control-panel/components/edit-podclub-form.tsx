import { useId, useState, type FormEvent } from 'react'
import {
  CLUB_TIME_ABBREVIATION,
  CLUB_TIME_MESSAGES,
  clubDateTimeOfInput,
} from '#contract/club-time'
import { idSchema } from '#contract/common'
import { updatePodclubBodySchema, type ControlPanelPodclub } from '#contract/control-panel'
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { isApiError } from '#client/lib/api-client'
import { toast } from '#client/lib/toast'
import { useUpdatePodclub } from '../api/update-podclub'

type Values = { id: string; startsAt: string; location: string; zoomLink: string; status: string }
const EMPTY: Values = { id: '', startsAt: '', location: '', zoomLink: '', status: '' }
type Field = keyof Values
type Errors = Partial<Record<Field | 'form', string>>

const API_FIELDS: Record<string, Field> = {
  scheduledStart: 'startsAt',
  location: 'location',
  zoomLink: 'zoomLink',
  status: 'status',
}

const selectClass =
  'h-10 w-full rounded-sm border border-line bg-paper-raised px-3 text-base text-ink aria-invalid:border-danger sm:text-sm'

/** Changes the date, location, Zoom link or status of any podclub; empty fields stay as they are. */
export function EditPodclubForm({ podclubs }: { podclubs: ControlPanelPodclub[] }) {
  const id = useId()
  const [values, setValues] = useState<Values>(EMPTY)
  const [errors, setErrors] = useState<Errors>({})
  const update = useUpdatePodclub()
  const fieldId = (field: Field) => `${id}-${field}`
  const errorId = (field: Field | 'form') => `${id}-${field}-error`

  function set(field: Field, value: string) {
    setValues((current) => ({ ...current, [field]: value }))
    if (errors[field] || errors.form)
      setErrors((current) => ({ ...current, [field]: undefined, form: undefined }))
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (update.isPending) return
    const podclubId = idSchema.safeParse(values.id.trim() || undefined)
    const next: Errors = {}
    if (!podclubId.success) next.id = 'Enter a podclub ID number'
    const scheduledStart = values.startsAt
      ? (clubDateTimeOfInput(values.startsAt) ?? undefined)
      : undefined
    if (values.startsAt && !scheduledStart) next.startsAt = CLUB_TIME_MESSAGES.required
    const body = updatePodclubBodySchema.safeParse({
      scheduledStart,
      location: values.location || undefined,
      zoomLink: values.zoomLink.trim() || undefined,
      status: values.status || undefined,
    })
    if (!body.success) {
      for (const issue of body.error.issues) {
        const key = String(issue.path[0] ?? '')
        const field = API_FIELDS[key] ?? 'form'
        next[field] ??= issue.message
      }
    }
    setErrors(next)
    if (!podclubId.success || !body.success || Object.keys(next).length > 0) return

    update.mutate(
      { id: podclubId.data, body: body.data },
      {
        onSuccess: (row) => {
          toast({ title: 'podclub updated', description: `${row.episode_title} (ID ${row.id})` })
          setValues(EMPTY)
        },
        onError: (error) => {
          if (isApiError(error)) {
            const fieldErrors: Errors = {}
            for (const [key, messages] of Object.entries(error.fieldErrors)) {
              const field = API_FIELDS[key]
              if (field && messages[0]) fieldErrors[field] = messages[0]
            }
            setErrors(fieldErrors)
          }
          toast({
            title: 'Failed to update podclub',
            description: error.message,
            variant: 'destructive',
          })
        },
      },
    )
  }

  const describedBy = (field: Field) => (errors[field] ? errorId(field) : undefined)
  const error = (field: Field | 'form') =>
    errors[field] ? (
      <p id={errorId(field)} className="text-sm text-danger">
        {errors[field]}
      </p>
    ) : null
  const listId = `${id}-podclubs`

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <p className="text-sm text-ink-muted">Fill in only what changes.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={fieldId('id')}>podclub ID</Label>
          <Input
            id={fieldId('id')}
            type="number"
            inputMode="numeric"
            min={1}
            list={listId}
            value={values.id}
            onChange={(e) => set('id', e.target.value)}
            aria-invalid={errors.id ? true : undefined}
            aria-describedby={describedBy('id')}
          />
          <datalist id={listId}>
            {podclubs.map((p) => (
              <option key={p.id} value={p.id}>
                {p.episode_title}
              </option>
            ))}
          </datalist>
          {error('id')}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={fieldId('startsAt')}>new date and time ({CLUB_TIME_ABBREVIATION})</Label>
          <Input
            id={fieldId('startsAt')}
            type="datetime-local"
            step={1800}
            value={values.startsAt}
            onChange={(e) => set('startsAt', e.target.value)}
            aria-invalid={errors.startsAt ? true : undefined}
            aria-describedby={describedBy('startsAt')}
          />
          {error('startsAt')}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={fieldId('location')}>location</Label>
          <select
            id={fieldId('location')}
            className={selectClass}
            value={values.location}
            onChange={(e) => set('location', e.target.value)}
            aria-invalid={errors.location ? true : undefined}
            aria-describedby={describedBy('location')}
          >
            <option value="">unchanged</option>
            <option value="zoom">Zoom</option>
            <option value="nyc">NYC</option>
          </select>
          {error('location')}
        </div>
        <div className="grid gap-2">
          <Label htmlFor={fieldId('status')}>status</Label>
          <select
            id={fieldId('status')}
            className={selectClass}
            value={values.status}
            onChange={(e) => set('status', e.target.value)}
            aria-invalid={errors.status ? true : undefined}
            aria-describedby={describedBy('status')}
          >
            <option value="">unchanged</option>
            <option value="upcoming">upcoming</option>
            <option value="completed">completed</option>
            <option value="cancelled">cancelled</option>
          </select>
          {error('status')}
        </div>
        <div className="grid gap-2 sm:col-span-2">
          <Label htmlFor={fieldId('zoomLink')}>Zoom link</Label>
          <Input
            id={fieldId('zoomLink')}
            type="url"
            inputMode="url"
            placeholder="https://zoom.us/j/…"
            value={values.zoomLink}
            onChange={(e) => set('zoomLink', e.target.value)}
            aria-invalid={errors.zoomLink ? true : undefined}
            aria-describedby={describedBy('zoomLink')}
          />
          {error('zoomLink')}
        </div>
      </div>
      {error('form')}
      <Button type="submit" className="justify-self-start" disabled={update.isPending}>
        {update.isPending ? <Spinner /> : null}[ save podclub ]
      </Button>
    </form>
  )
}
