import { useId } from 'react'
import { useFieldArray } from 'react-hook-form'
import { z } from 'zod'
import {
  CLUB_TIME_ABBREVIATION,
  CLUB_TIME_MESSAGES,
  clubDateTimeOfInput,
  isInFuture,
  readClubDateTime,
} from '#contract/club-time'
import { createPollBodySchema, POLL_OPTIONS_MAX, POLL_OPTIONS_MIN } from '#contract/polls'
import { Field, FieldError } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { Button } from '#client/components/ui/button'
import { toast } from '#client/lib/toast'
import { useCreatePoll } from '../api/operator-calls'

const emptyOption = () => ({ title: '', podcast: '', description: '', link: '' })
const startingOptions = () => Array.from({ length: POLL_OPTIONS_MIN }, emptyOption)

/**
 * The poll's body, its expiry typed in New York time as every operator form is: a time that
 * exists there, in the future, sent as ISO 8601.
 */
const createPollFormSchema = createPollBodySchema.extend({
  expires_at: z
    .string()
    .transform((local, ctx) => {
      const closes = readClubDateTime(clubDateTimeOfInput(local) ?? '')
      const refuse = (message: string) => {
        ctx.addIssue({ code: 'custom', message })
        return z.NEVER
      }
      if (closes.error === 'noSuchTime') return refuse(CLUB_TIME_MESSAGES.noSuchTime)
      if (!closes.date) return ''
      if (!isInFuture(closes.date, new Date())) return refuse(CLUB_TIME_MESSAGES.past)
      return closes.date.toISOString()
    })
    .pipe(createPollBodySchema.shape.expires_at),
})

/** Creates a poll: title, theme, expiry, and 2 to 10 options (spec 2, CONTRACT.md). */
export function CreatePollForm() {
  const id = useId()
  const form = useContractForm(createPollFormSchema, {
    defaultValues: { title: '', description: '', expires_at: '', options: startingOptions() },
  })
  const { errors } = form.formState
  const options = useFieldArray({ control: form.control, name: 'options' })
  const create = useCreatePoll()

  const handleSubmit = form.handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: (poll) => {
        toast({ title: 'Poll created', description: `${poll.title} (ID ${poll.id})` })
        form.reset()
      },
      onError: (error) => showServerError(form, error, { title: 'Failed to create poll' }),
    }),
  )

  const optionsError = errors.options?.root?.message ?? errors.options?.message

  return (
    <form
      noValidate
      aria-label="create a poll"
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="poll title" error={errors.title?.message} {...form.register('title')} />
        <Field
          label={`voting closes (${CLUB_TIME_ABBREVIATION})`}
          type="datetime-local"
          error={errors.expires_at?.message}
          {...form.register('expires_at')}
        />
      </div>
      <Field
        as="textarea"
        label="theme / description"
        rows={3}
        error={errors.description?.message}
        {...form.register('description')}
      />
      <FieldError id={`${id}-options-error`} message={optionsError} />
      {options.fields.map((option, i) => (
        <fieldset key={option.id} className="grid gap-3 rounded-sm border border-line p-3">
          <legend className="px-1 text-sm">option {i + 1}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            {(['title', 'podcast', 'description', 'link'] as const).map((part) => (
              <Field
                key={part}
                label={`option ${i + 1} ${part}`}
                error={errors.options?.[i]?.[part]?.message}
                {...form.register(`options.${i}.${part}`)}
              />
            ))}
          </div>
          {options.fields.length > POLL_OPTIONS_MIN ? (
            <Button
              type="button"
              variant="outline"
              className="justify-self-start"
              onClick={() => options.remove(i)}
            >
              [ remove option {i + 1} ]
            </Button>
          ) : null}
        </fieldset>
      ))}
      <div className="flex flex-wrap gap-3">
        {options.fields.length < POLL_OPTIONS_MAX ? (
          <Button type="button" variant="outline" onClick={() => options.append(emptyOption())}>
            [ add option ]
          </Button>
        ) : null}
        <PendingButton isPending={create.isPending}>[ create poll ]</PendingButton>
      </div>
    </form>
  )
}
