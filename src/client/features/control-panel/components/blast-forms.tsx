import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useId, useRef, useState } from 'react'
import type { FieldErrors, UseFormReturn } from 'react-hook-form'
import type { z } from 'zod'
import {
  createBlastBodySchema,
  type CreateBlastBody,
  monthlyBlastResultSchema,
} from '#contract/control-panel'
import { isJobSettled, type Job } from '#contract/jobs'
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
import { Progress } from '#client/components/ui/progress'
import { PendingButton } from '#client/components/form/pending-button'
import { formErrorOf, showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { jobQueryOptions, useJob } from '../api/get-job'
import { useSendMonthlyBlast } from '../api/send-monthly-blast'
import { useSendTestBlast } from '../api/send-test-blast'
import { formatCount } from '#client/lib/text'

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

/** Where the page keeps the blast it is following, so a reload goes on showing its progress. */
const BLAST_JOB_KEY = 'podclub.monthly-blast-job'

function storedJobId(): number | null {
  try {
    const id = Number(window.sessionStorage.getItem(BLAST_JOB_KEY))
    return Number.isInteger(id) && id > 0 ? id : null
  } catch {
    return null
  }
}

function storeJobId(id: number | null) {
  try {
    if (id === null) window.sessionStorage.removeItem(BLAST_JOB_KEY)
    else window.sessionStorage.setItem(BLAST_JOB_KEY, String(id))
  } catch {
    // Storage refused (private mode, full): the progress shows until the page is left.
  }
}

/** Tells the operator how a blast job ended, in the spec's words. */
function announce(job: Job) {
  if (job.status === 'done') {
    const result = monthlyBlastResultSchema.safeParse(job.result)
    const queued = result.success ? ` (${result.data.queued} queued)` : ''
    toast({
      title: 'Monthly Blast Sent',
      description: `The monthly blast was sent successfully to all members${queued}.`,
    })
  } else {
    toast({
      title: 'Unable to Send Monthly Blast',
      description: job.error ?? 'The monthly blast could not be sent.',
      variant: 'destructive',
    })
  }
}

/** How far the blast has come: members reached out of those it goes to. */
function BlastProgress({ job }: { job: Job }) {
  const percent = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0
  return (
    <div role="status" className="grid gap-1.5 text-sm">
      <p>
        {job.status === 'queued' || job.total === null
          ? 'Monthly blast queued, starting…'
          : `Sending the monthly blast: ${formatCount(job.done)} of ${formatCount(job.total)} members`}
      </p>
      <Progress value={percent} label="monthly blast progress" />
    </div>
  )
}

export function MonthlyBlastForm() {
  const form = useBlastForm()
  const [confirming, setConfirming] = useState<CreateBlastBody | null>(null)
  const send = useSendMonthlyBlast()
  const queryClient = useQueryClient()
  // The job the server answered with: asked about every second until it is done or failed.
  const [jobId, setJobId] = useState<number | null>(storedJobId)
  const { data: job, isRefused } = useJob(jobId)
  const following = job && job.id === jobId ? job : undefined
  const isFollowing = jobId !== null && !isRefused && !(following && isJobSettled(following))
  const isSending = send.isPending || isFollowing

  // Told once per job, when it settles; the query stops asking by itself (`jobQueryOptions`).
  const announced = useRef<number | null>(null)
  useEffect(() => {
    if (!following || !isJobSettled(following) || announced.current === following.id) return
    announced.current = following.id
    announce(following)
    storeJobId(null)
  }, [following])
  useEffect(() => {
    if (isRefused) storeJobId(null)
  }, [isRefused])

  // Spec 2 §5: a blast to every member waits for the operator to confirm it.
  const handleSubmit = form.handleSubmit((body) => setConfirming(body))

  function handleConfirm() {
    if (!confirming) return
    send.mutate(confirming, {
      onSuccess: (queued) => {
        queryClient.setQueryData(jobQueryOptions(queued.id).queryKey, queued)
        storeJobId(queued.id)
        setJobId(queued.id)
      },
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
      <PendingButton isPending={isSending} className="justify-self-start">
        [ send monthly blast ]
      </PendingButton>
      {following && !isJobSettled(following) ? <BlastProgress job={following} /> : null}
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
