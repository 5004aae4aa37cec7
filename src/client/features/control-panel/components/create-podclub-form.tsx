import { useMemo } from 'react'
import type { FieldPath } from 'react-hook-form'
import { CLUB_TIME_ABBREVIATION } from '#contract/club-time'
import {
  createOperatorPodclubBodySchema,
  type CreateOperatorPodclubBody,
} from '#contract/control-panel'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useCreateOperatorPodclub } from '../api/operator-calls'

const EMPTY: Required<CreateOperatorPodclubBody> = {
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

type Name = FieldPath<CreateOperatorPodclubBody>

const TEXT_FIELDS: [Name, string, { multiline?: boolean; placeholder?: string }?][] = [
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
  const schema = useMemo(() => createOperatorPodclubBodySchema(() => new Date()), [])
  const form = useContractForm(schema, { defaultValues: EMPTY })
  const { errors } = form.formState
  const create = useCreateOperatorPodclub()

  const handleSubmit = form.handleSubmit((body) =>
    create.mutate(body, {
      onSuccess: (podclub) => {
        toast({
          title: 'podclub created',
          description: `${podclub.episode_title} (ID ${podclub.id})`,
        })
        form.reset()
      },
      onError: (error) => showServerError(form, error, { title: 'Failed to create podclub' }),
    }),
  )

  return (
    <form
      noValidate
      aria-label="create a podclub"
      onSubmit={handleSubmit}
      className="grid gap-4 rounded-sm border border-line p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {TEXT_FIELDS.map(([name, label, options]) =>
          options?.multiline ? (
            <Field
              key={name}
              as="textarea"
              label={label}
              rows={3}
              error={errors[name]?.message}
              {...form.register(name)}
            />
          ) : (
            <Field
              key={name}
              label={label}
              placeholder={options?.placeholder}
              error={errors[name]?.message}
              {...form.register(name)}
            />
          ),
        )}
        <Field as="select" label="podclub location" {...form.register('location')}>
          <option value="zoom">zoom</option>
          <option value="nyc">nyc</option>
        </Field>
      </div>
      <PendingButton isPending={create.isPending} className="justify-self-start">
        [ create podclub ]
      </PendingButton>
    </form>
  )
}
