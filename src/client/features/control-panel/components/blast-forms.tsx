import { useId, useState, type FormEvent } from 'react'
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
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useSendMonthlyBlast } from '../api/send-monthly-blast'
import { useSendTestBlast } from '../api/send-test-blast'

type Ids = [string, string, string]
const EMPTY: Ids = ['', '', '']

/** Reads the three inputs with the contract's rules; gives the body or the first problem. */
function parseIds(ids: Ids): { body: CreateBlastBody } | { error: string } {
  const [a, b, c] = ids.map((v) => v.trim() || undefined)
  const parsed = createBlastBodySchema.safeParse({ podclub_1: a, podclub_2: b, podclub_3: c })
  if (parsed.success) return { body: parsed.data }
  return { error: parsed.error.issues[0]?.message ?? 'Enter three podclub IDs' }
}

type BlastFieldsProps = {
  legend: string
  description: string
  ids: Ids
  error: string | undefined
  onChange: (ids: Ids) => void
}

function BlastFields({ legend, description, ids, error, onChange }: BlastFieldsProps) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <fieldset className="grid gap-3" aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1 font-mono text-base font-semibold">{legend}</legend>
      <p className="text-sm text-ink-muted">{description}</p>
      <div className="grid grid-cols-1 gap-2 min-[420px]:grid-cols-3">
        {ids.map((value, i) => {
          const label = `podclub ID ${i + 1}`
          return (
            <div key={label} className="grid">
              <label htmlFor={`${id}-${i}`} className="sr-only">
                {label}
              </label>
              <Input
                id={`${id}-${i}`}
                type="number"
                inputMode="numeric"
                min={1}
                placeholder={label}
                value={value}
                aria-invalid={error ? true : undefined}
                onChange={(event) => {
                  const next: Ids = [...ids]
                  next[i] = event.target.value
                  onChange(next)
                }}
              />
            </div>
          )
        })}
      </div>
      {error ? (
        <p id={errorId} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

export function TestBlastForm() {
  const [ids, setIds] = useState<Ids>(EMPTY)
  const [error, setError] = useState<string>()
  const send = useSendTestBlast()

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (send.isPending) return
    const parsed = parseIds(ids)
    if ('error' in parsed) return setError(parsed.error)
    setError(undefined)
    send.mutate(parsed.body, {
      onSuccess: () =>
        toast({
          title: 'Test Blast Sent',
          description: 'The test monthly blast was sent successfully.',
        }),
      onError: (apiError) =>
        toast({
          title: 'Unable to Send Test Blast',
          description: apiError.message,
          variant: 'destructive',
        }),
      // Spec 2 §4: the inputs are cleared after each attempt.
      onSettled: () => setIds(EMPTY),
    })
  }

  return (
    <form
      noValidate
      onSubmit={handleSubmit}
      className="grid gap-3 rounded-sm border border-line p-4"
    >
      <BlastFields
        legend="test blast"
        description="Sends the monthly blast to super users only, to check it first."
        ids={ids}
        error={error}
        onChange={setIds}
      />
      <Button
        type="submit"
        variant="outline"
        className="justify-self-start"
        disabled={send.isPending}
      >
        {send.isPending ? <Spinner /> : null}[ send test blast ]
      </Button>
    </form>
  )
}

export function MonthlyBlastForm() {
  const [ids, setIds] = useState<Ids>(EMPTY)
  const [error, setError] = useState<string>()
  const [confirming, setConfirming] = useState<CreateBlastBody | null>(null)
  const send = useSendMonthlyBlast()

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (send.isPending) return
    const parsed = parseIds(ids)
    if ('error' in parsed) return setError(parsed.error)
    setError(undefined)
    setConfirming(parsed.body)
  }

  function handleConfirm() {
    if (!confirming) return
    send.mutate(confirming, {
      onSuccess: (data) =>
        toast({
          title: 'Monthly Blast Sent',
          description: `The monthly blast was sent successfully to all members (${data.queued} queued).`,
        }),
      onError: (apiError) =>
        toast({
          title: 'Unable to Send Monthly Blast',
          description: apiError.message,
          variant: 'destructive',
        }),
      onSettled: () => setIds(EMPTY),
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
        ids={ids}
        error={error}
        onChange={setIds}
      />
      <Button type="submit" className="justify-self-start" disabled={send.isPending}>
        {send.isPending ? <Spinner /> : null}[ send monthly blast ]
      </Button>
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
