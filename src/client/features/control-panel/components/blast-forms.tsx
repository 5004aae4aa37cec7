import { useId, useState } from 'react'
import type { FieldErrors, UseFormReturn } from 'react-hook-form'
import type { z } from 'zod'
import { createBlastBodySchema, type CreateBlastBody } from '#contract/control-panel'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#client/components/ui/alert-dialog'
import { Field, FieldError } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { formErrorOf, showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useSendMonthlyBlast } from '../api/send-monthly-blast'
import { useSendTestBlast } from '../api/send-test-blast'

const ID_FIELDS = ['podclub_1', 'podclub_2', 'podclub_3'] as const
const EMPTY = { podclub_1: '', podclub_2: '', podclub_3: '' }

type BlastValues = z.input<typeof createBlastBodySchema>
type BlastForm = UseFormReturn<BlastValues, unknown, z.output<typeof createBlastBodySchema>>

function useBlastForm() {
  return useContractForm(createBlastBodySchema, { defaultValues: EMPTY })
}

/** The three ids share one message: the first problem, in the order of the inputs. */
function firstProblem(errors: FieldErrors<BlastValues>) {
  for (const name of ID_FIELDS) {
    const message = errors[name]?.message
    if (message) return message
  }
  return formErrorOf(errors)
}

type BlastFieldsProps = {
  legend: string
  description: string
  form: BlastForm
}

function BlastFields({ legend, description, form }: BlastFieldsProps) {
  const id = useId()
  const errorId = `${id}-error`
  const error = firstProblem(form.formState.errors)
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 font-mono text-base font-semibold">{legend}</legend>
      <p className="text-sm text-ink-muted">{description}</p>
      <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-3">
        {ID_FIELDS.map((name, i) => {
          const label = `podclub ID ${i + 1}`
          return (
            <Field
              key={name}
              label={label}
              hideLabel
              type="number"
              inputMode="numeric"
              min={1}
              placeholder={label}
              aria-invalid={error ? true : undefined}
              {...form.register(name)}
            />
          )
        })}
      </div>
      <FieldError id={errorId} message={error} />
    </fieldset>
  )
}

export function TestBlastForm() {
  const form = useBlastForm()
  const send = useSendTestBlast()

  const handleSubmit = form.handleSubmit((body) =>
    send.mutate(body, {
      onSuccess: () =>
        toast({
          title: 'Test Blast Sent',
          description: 'The test monthly blast was sent successfully.',
        }),
      onError: (error) => showServerError(form, error, { title: 'Unable to Send Test Blast' }),
      // Spec 2 §4: the inputs are cleared after each attempt.
      onSettled: () => form.reset(),
    }),
  )

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid gap-3 rounded-sm border border-line p-4"
    >
      <BlastFields
        legend="test blast"
        description="Sends the monthly blast to super users only, to check it first."
        form={form}
      />
      <PendingButton isPending={send.isPending} variant="outline" className="justify-self-start">
        [ send test blast ]
      </PendingButton>
    </form>
  )
}

export function MonthlyBlastForm() {
  const form = useBlastForm()
  const [confirming, setConfirming] = useState<CreateBlastBody | null>(null)
  const send = useSendMonthlyBlast()

  // Spec 2 §5: a blast to every member waits for the operator to confirm it.
  const handleSubmit = form.handleSubmit((body) => setConfirming(body))

  function handleConfirm() {
    if (!confirming) return
    send.mutate(confirming, {
      onSuccess: (data) =>
        toast({
          title: 'Monthly Blast Sent',
          description: `The monthly blast was sent successfully to all members (${data.queued} queued).`,
        }),
      onError: (error) => showServerError(form, error, { title: 'Unable to Send Monthly Blast' }),
      onSettled: () => form.reset(),
    })
    setConfirming(null)
  }

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid gap-3 rounded-sm border border-line p-4"
    >
      <BlastFields
        legend="monthly blast"
        description="Sends three upcoming podclubs to every member who has not unsubscribed."
        form={form}
      />
      <PendingButton isPending={send.isPending} className="justify-self-start">
        [ send monthly blast ]
      </PendingButton>
      <AlertDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null)
        }}
      >
        <AlertDialogContent>
          <AlertDialogTitle>Are you absolutely sure?</AlertDialogTitle>
          <AlertDialogDescription>
            This will send the monthly blast to ALL members. This action cannot be undone.
          </AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <AlertDialogAction onClick={handleConfirm}>Yes, Send Monthly Blast</AlertDialogAction>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </form>
  )
}
