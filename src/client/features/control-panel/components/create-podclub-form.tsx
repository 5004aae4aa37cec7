import { useId, useState, type FormEvent } from 'react'
import { CLUB_TIME_ABBREVIATION } from '#contract/club-time'
import {
  createOperatorPodclubBodySchema,
  type CreateOperatorPodclubBody,
} from '#contract/control-panel'
import { Button } from '#client/components/ui/button'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useCreateOperatorPodclub } from '../api/operator-calls'
import { firstErrors, FormField } from './form-field'

type Values = Required<{ [K in keyof CreateOperatorPodclubBody]: string }>

const EMPTY: Values = {
  title: '',
  podcastName: '',
  number: '',
  keywordOne: '',
  keywordTwo: '',
  keywordThree: '',
  linkOne: '',
  linkTwo: '',
  linkThree: '',
  scheduledStart: '',
  description: '',
  podmeisterNote: '',
  location: 'zoom',
  podmeister: '',
  zoomLink: '',
}

const TEXT_FIELDS: [keyof Values, string, { multiline?: boolean; placeholder?: string }?][] = [
  ['title', 'episode title'],
  ['podcastName', 'podcast'],
  ['number', 'episode number (optional)'],
  ['podmeister', 'podmeister (username)'],
  [
    'scheduledStart',
    `date and time (${CLUB_TIME_ABBREVIATION})`,
    { placeholder: 'MM/DD/YYYY HH:mm' },
  ],
  ['zoomLink', 'Zoom link (optional)'],
  ['keywordOne', 'keyword 1'],
  ['keywordTwo', 'keyword 2'],
  ['keywordThree', 'keyword 3'],
  ['linkOne', 'link 1'],
  ['linkTwo', 'link 2 (optional)'],
  ['linkThree', 'link 3 (optional)'],
  ['description', 'description', { multiline: true }],
  ['podmeisterNote', 'podmeister note', { multiline: true }],
]

/** Creates an upcoming podclub with any future date and any member as podmeister. */
export function CreatePodclubForm() {
  const id = useId()
  const [values, setValues] = useState<Values>(EMPTY)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const create = useCreateOperatorPodclub()
  const set = (name: keyof Values) => (value: string) =>
    setValues((current) => ({ ...current, [name]: value }))

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (create.isPending) return
    const parsed = createOperatorPodclubBodySchema(() => new Date()).safeParse(values)
    if (!parsed.success) return setErrors(firstErrors(parsed.error.issues))
    setErrors({})
    create.mutate(values as CreateOperatorPodclubBody, {
      onSuccess: (podclub) => {
        toast({
          title: 'podclub created',
          description: `${podclub.episode_title} (ID ${podclub.id})`,
        })
        setValues(EMPTY)
      },
      onError: (error) =>
        toast({
          title: 'Failed to create podclub',
          description: error.message,
          variant: 'destructive',
        }),
    })
  }

  return (
    <form
      noValidate
      aria-label="create a podclub"
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.map(([name, label, options]) => (
          <FormField
            key={name}
            id={`${id}-${name}`}
            label={label}
            value={values[name]}
            onChange={set(name)}
            error={errors[name]}
            {...options}
          />
        ))}
        <div className="grid content-start gap-2">
          <Label htmlFor={`${id}-location`}>podclub location</Label>
          <select
            id={`${id}-location`}
            value={values.location}
            onChange={(e) => set('location')(e.target.value)}
            className="h-10 rounded-sm border border-line bg-paper-raised px-3 text-base text-ink sm:text-sm"
          >
            <option value="zoom">zoom</option>
            <option value="nyc">nyc</option>
          </select>
        </div>
      </div>
      <Button type="submit" className="justify-self-start" disabled={create.isPending}>
        {create.isPending ? <Spinner /> : null}[ create podclub ]
      </Button>
    </form>
  )
}
