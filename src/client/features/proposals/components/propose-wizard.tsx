import { useEffect, useId, useMemo, useRef, type FormEvent } from 'react'
import { Controller, type FieldErrors as FormErrors } from 'react-hook-form'
import type { z } from 'zod'
import {
  PROPOSAL_STEP_FIELDS,
  proposalFormSchema,
  proposalStepSchemas,
  toProposalPayload,
  type CreateProposalBody,
  type ProposalForm,
} from '#contract/proposals'
import { Field, FieldError } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { Button } from '#client/components/ui/button'
import { Label } from '#client/components/ui/label'
import { Progress } from '#client/components/ui/progress'
import { RadioGroup, RadioGroupItem } from '#client/components/ui/radio-group'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useCreateProposal } from '../api/create-proposal'
import { useProposalSuggestions } from '../api/get-proposal-suggestions'
import { clearDraft, loadDraft, saveDraft } from '../lib/draft'
import { SchedulePicker } from './schedule-picker'

export const WIZARD_STEPS = 4
export const STEP_TITLES = [
  'Tell us about the podcast episode',
  'Add keywords and links',
  'Tell us more',
  'Schedule the discussion',
] as const

type FieldName = keyof ProposalForm
type FormOutput = z.output<ReturnType<typeof proposalFormSchema>>

/** The payload's names for the form's fields, to put the server's field errors in place. */
const PAYLOAD_FIELDS: Record<keyof CreateProposalBody, FieldName> = {
  title: 'episode',
  podcastName: 'podcast',
  number: 'episodeNumber',
  keywordOne: 'keyword1',
  keywordTwo: 'keyword2',
  keywordThree: 'keyword3',
  linkOne: 'link1',
  linkTwo: 'link2',
  linkThree: 'link3',
  scheduledStart: 'scheduledStart',
  description: 'description',
  podmeisterNote: 'podmeisterNote',
  location: 'location',
}

const stepOf = (field: FieldName) =>
  PROPOSAL_STEP_FIELDS.findIndex((fields) => (fields as readonly FieldName[]).includes(field)) + 1

type ProposeWizardProps = {
  /** 1 to 4, kept in the URL by the route. */
  step: number
  onStepChange: (step: number) => void
  onSubmitted: () => void
}

export function ProposeWizard({ step, onStepChange, onSubmitted }: ProposeWizardProps) {
  const id = useId()
  const schema = useMemo(() => proposalFormSchema(), [])
  const form = useContractForm(schema, {
    // Each field checks itself as it changes and its error clears once it is valid (spec 1 §4).
    mode: 'onChange',
    defaultValues: loadDraft(),
  })
  const { register, control, formState } = form
  const errors = formState.errors
  const suggestions = useProposalSuggestions()
  const create = useCreateProposal()
  const headingRef = useRef<HTMLHeadingElement>(null)
  const isFirstRender = useRef(true)

  useEffect(() => {
    return form.subscribe({
      formState: { values: true },
      callback: ({ values }) => saveDraft(values),
    })
  }, [form])

  useEffect(() => {
    if (suggestions.isError) {
      toast({ title: 'Error', description: 'Failed to load suggestions', variant: 'destructive' })
    }
  }, [suggestions.isError])

  // A new step moves focus to its title, so keyboard and screen-reader users start there.
  useEffect(() => {
    if (isFirstRender.current) {
      isFirstRender.current = false
      return
    }
    headingRef.current?.focus()
  }, [step])

  function showIssues(issues: { path: PropertyKey[]; message: string }[]) {
    const seen = new Set<FieldName>()
    for (const issue of issues) {
      const field = issue.path[0] as FieldName
      if (seen.has(field)) continue
      form.setError(
        field,
        { type: 'step', message: issue.message },
        { shouldFocus: seen.size === 0 },
      )
      seen.add(field)
    }
  }

  function handleNext() {
    const fields = PROPOSAL_STEP_FIELDS[step - 1]!
    const result = proposalStepSchemas()[step - 1]!.safeParse(form.getValues())
    form.clearErrors([...fields])
    if (!result.success) return showIssues(result.error.issues)
    onStepChange(step + 1)
  }

  function handleInvalid(invalid: FormErrors<ProposalForm>) {
    toast({
      title: 'Validation Error',
      description: 'Please check all form fields.',
      variant: 'destructive',
    })
    const steps = (Object.keys(invalid) as FieldName[]).map(stepOf).filter((s) => s > 0)
    const first = Math.min(...steps)
    if (Number.isFinite(first) && first !== step) onStepChange(first)
  }

  function handleValid(values: FormOutput) {
    create.mutate(toProposalPayload(values), {
      onSuccess: () => {
        clearDraft()
        toast({ title: 'Success!', description: 'Your podcast episode has been submitted.' })
        onSubmitted()
      },
      onError: (error) =>
        showServerError(form, error, { title: 'Submission failed', fields: PAYLOAD_FIELDS }),
    })
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (create.isPending) return
    if (step < WIZARD_STEPS) return handleNext()
    void form.handleSubmit(handleValid, handleInvalid)(event)
  }

  const errorOf = (name: FieldName) => errors[name]?.message

  const podcastListId = `${id}-podcasts`
  const keywordListId = `${id}-keywords`
  const isLoadingSuggestions = suggestions.isPending

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid max-w-2xl gap-6"
      aria-busy={create.isPending}
    >
      <div className="grid gap-2">
        <p className="font-mono text-sm" aria-live="polite">
          Step {step} of {WIZARD_STEPS}
        </p>
        <Progress value={(step / WIZARD_STEPS) * 100} label={`Step ${step} of ${WIZARD_STEPS}`} />
      </div>

      <h2
        ref={headingRef}
        tabIndex={-1}
        className="font-mono text-xl font-semibold tracking-tight outline-none"
      >
        {STEP_TITLES[step - 1]}
      </h2>

      <datalist id={podcastListId}>
        {(suggestions.data?.podcasts ?? []).map((p) => (
          <option key={p} value={p} />
        ))}
      </datalist>
      <datalist id={keywordListId}>
        {(suggestions.data?.keywords ?? []).map((k) => (
          <option key={k} value={k} />
        ))}
      </datalist>
      {isLoadingSuggestions && (step === 1 || step === 2) ? (
        <p className="flex items-center gap-2 text-sm text-ink-muted" role="status">
          <Spinner /> loading suggestions…
        </p>
      ) : null}

      {step === 1 ? (
        <div className="grid gap-5">
          <Field label="episode title" error={errorOf('episode')} {...register('episode')} />
          <Field
            label="podcast name"
            list={podcastListId}
            autoComplete="off"
            placeholder="pick one or type a new one"
            error={errorOf('podcast')}
            {...register('podcast')}
          />
          <Field
            label="episode number (optional)"
            inputMode="numeric"
            error={errorOf('episodeNumber')}
            {...register('episodeNumber')}
          />
        </div>
      ) : null}

      {step === 2 ? (
        <div className="grid gap-5">
          <div className="grid gap-5 sm:grid-cols-3">
            {(['keyword1', 'keyword2', 'keyword3'] as const).map((name, i) => (
              <Field
                key={name}
                label={`keyword ${i + 1}`}
                list={keywordListId}
                autoComplete="off"
                error={errorOf(name)}
                {...register(name)}
              />
            ))}
          </div>
          {(['link1', 'link2', 'link3'] as const).map((name, i) => (
            <Field
              key={name}
              label={i === 0 ? 'link 1' : `link ${i + 1} (optional)`}
              type="url"
              inputMode="url"
              placeholder="https://"
              error={errorOf(name)}
              {...register(name)}
            />
          ))}
        </div>
      ) : null}

      {step === 3 ? (
        <div className="grid gap-5">
          <Field
            as="textarea"
            label="episode description"
            rows={5}
            error={errorOf('description')}
            {...register('description')}
          />
          <Field
            as="textarea"
            label="podmeister note: why did you choose this episode?"
            rows={5}
            error={errorOf('podmeisterNote')}
            {...register('podmeisterNote')}
          />
        </div>
      ) : null}

      {step === 4 ? (
        <div className="grid gap-6">
          <Controller
            control={control}
            name="scheduledStart"
            render={({ field }) => (
              <div className="grid gap-2">
                <SchedulePicker
                  value={field.value}
                  onChange={(value) => field.onChange(value)}
                  error={errors.scheduledStart?.message}
                  errorId={`${id}-scheduledStart-error`}
                />
                <FieldError id={`${id}-scheduledStart-error`} message={errorOf('scheduledStart')} />
              </div>
            )}
          />
          <Controller
            control={control}
            name="location"
            render={({ field }) => (
              <fieldset className="grid gap-3">
                <legend className="mb-2 font-mono text-sm">location</legend>
                <RadioGroup
                  value={field.value}
                  onValueChange={field.onChange}
                  aria-describedby={errors.location ? `${id}-location-error` : undefined}
                >
                  {(
                    [
                      ['zoom', 'Zoom Meeting', 'join remotely'],
                      ['nyc', 'NYC Office', 'meet in person'],
                    ] as const
                  ).map(([value, label, hint]) => (
                    <div key={value} className="flex items-center gap-3">
                      <RadioGroupItem value={value} id={`${id}-location-${value}`} />
                      <Label htmlFor={`${id}-location-${value}`} className="grid cursor-pointer">
                        <span>{label}</span>
                        <span className="font-sans text-xs text-ink-muted">{hint}</span>
                      </Label>
                    </div>
                  ))}
                </RadioGroup>
                <FieldError id={`${id}-location-error`} message={errorOf('location')} />
              </fieldset>
            )}
          />
        </div>
      ) : null}

      <div className="flex items-center justify-between gap-4 border-t border-line pt-4">
        <Button
          type="button"
          variant="outline"
          disabled={step === 1 || create.isPending}
          onClick={() => onStepChange(step - 1)}
        >
          Back
        </Button>
        {step < WIZARD_STEPS ? (
          <Button type="submit">Next</Button>
        ) : (
          <PendingButton isPending={create.isPending} pendingLabel="Submitting…">
            Submit
          </PendingButton>
        )}
      </div>
    </form>
  )
}
