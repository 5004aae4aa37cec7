import { useId, useState, type FormEvent } from 'react'
import {
  CLUB_TIME_ABBREVIATION,
  CLUB_TIME_MESSAGES,
  clubDateTimeOfInput,
  isInFuture,
  readClubDateTime,
} from '#contract/club-time'
import { createPollBodySchema, POLL_OPTIONS_MAX, POLL_OPTIONS_MIN } from '#contract/polls'
import { Button } from '#client/components/ui/button'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useCreatePoll } from '../api/operator-calls'
import { firstErrors, FormField } from './form-field'

type Option = { key: number; title: string; podcast: string; description: string; link: string }

let nextKey = 0
const emptyOption = (): Option => ({
  key: nextKey++,
  title: '',
  podcast: '',
  description: '',
  link: '',
})
const startingOptions = () => Array.from({ length: POLL_OPTIONS_MIN }, emptyOption)

/** Creates a poll: title, theme, expiry, and 2 to 10 options (spec 2, CONTRACT.md). */
export function CreatePollForm() {
  const id = useId()
  const [title, setTitle] = useState('')
  const [description, setDescription] = useState('')
  const [expires, setExpires] = useState('')
  const [options, setOptions] = useState<Option[]>(startingOptions)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const create = useCreatePoll()

  const setOption = (key: number, name: keyof Omit<Option, 'key'>) => (value: string) =>
    setOptions((current) => current.map((o) => (o.key === key ? { ...o, [name]: value } : o)))

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (create.isPending) return
    // The field is New York time, as every operator form is.
    const closes = readClubDateTime(clubDateTimeOfInput(expires) ?? '')
    const body = {
      title,
      description,
      expires_at: closes.date?.toISOString() ?? '',
      options: options.map(({ title, podcast, description, link }) => ({
        title,
        podcast,
        description,
        link,
      })),
    }
    const parsed = createPollBodySchema.safeParse(body)
    const next = parsed.success ? {} : firstErrors(parsed.error.issues)
    if (closes.error === 'noSuchTime') next.expires_at = CLUB_TIME_MESSAGES.noSuchTime
    if (closes.date && !isInFuture(closes.date, new Date()))
      next.expires_at = CLUB_TIME_MESSAGES.past
    setErrors(next)
    if (Object.keys(next).length > 0) return
    create.mutate(body, {
      onSuccess: (poll) => {
        toast({ title: 'Poll created', description: `${poll.title} (ID ${poll.id})` })
        setTitle('')
        setDescription('')
        setExpires('')
        setOptions(startingOptions())
      },
      onError: (error) =>
        toast({
          title: 'Failed to create poll',
          description: error.message,
          variant: 'destructive',
        }),
    })
  }

  return (
    <form
      noValidate
      aria-label="create a poll"
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField
          id={`${id}-title`}
          label="poll title"
          value={title}
          onChange={setTitle}
          error={errors.title}
        />
        <FormField
          id={`${id}-expires`}
          label={`voting closes (${CLUB_TIME_ABBREVIATION})`}
          type="datetime-local"
          value={expires}
          onChange={setExpires}
          error={errors.expires_at}
        />
      </div>
      <FormField
        id={`${id}-description`}
        label="theme / description"
        multiline
        value={description}
        onChange={setDescription}
        error={errors.description}
      />
      {errors.options ? <p className="text-sm text-danger">{errors.options}</p> : null}
      {options.map((option, i) => (
        <fieldset key={option.key} className="grid gap-3 rounded-sm border border-line p-3">
          <legend className="px-1 text-sm">option {i + 1}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField
              id={`${id}-o${option.key}-title`}
              label={`option ${i + 1} title`}
              value={option.title}
              onChange={setOption(option.key, 'title')}
              error={errors[`options.${i}.title`]}
            />
            <FormField
              id={`${id}-o${option.key}-podcast`}
              label={`option ${i + 1} podcast`}
              value={option.podcast}
              onChange={setOption(option.key, 'podcast')}
              error={errors[`options.${i}.podcast`]}
            />
            <FormField
              id={`${id}-o${option.key}-description`}
              label={`option ${i + 1} description`}
              value={option.description}
              onChange={setOption(option.key, 'description')}
              error={errors[`options.${i}.description`]}
            />
            <FormField
              id={`${id}-o${option.key}-link`}
              label={`option ${i + 1} link`}
              value={option.link}
              onChange={setOption(option.key, 'link')}
              error={errors[`options.${i}.link`]}
            />
          </div>
          {options.length > POLL_OPTIONS_MIN ? (
            <Button
              type="button"
              variant="outline"
              className="justify-self-start"
              onClick={() => setOptions((current) => current.filter((o) => o.key !== option.key))}
            >
              [ remove option {i + 1} ]
            </Button>
          ) : null}
        </fieldset>
      ))}
      <div className="flex flex-wrap gap-3">
        {options.length < POLL_OPTIONS_MAX ? (
          <Button
            type="button"
            variant="outline"
            onClick={() => setOptions((current) => [...current, emptyOption()])}
          >
            [ add option ]
          </Button>
        ) : null}
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? <Spinner /> : null}[ create poll ]
        </Button>
      </div>
    </form>
  )
}
