import { useId, useState, type FormEvent } from 'react'
import { createInviteCodesBodySchema, type ControlPanel } from '#contract/control-panel'
import { Button } from '#client/components/ui/button'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { Spinner } from '#client/components/ui/spinner'
import { Table, TableCell, TableHead, TableRegion, TableRow } from '#client/components/ui/table'
import { cn } from '#client/lib/cn'
import { toast } from '#client/lib/toast'
import { useCreateInviteCodes } from '../api/create-invite-codes'

export function InviteCodesSection({ codes }: { codes: ControlPanel['welcome_codes'] }) {
  return (
    <div className="grid gap-4">
      <GenerateCodesForm />
      {codes.length === 0 ? (
        <p className="text-sm text-ink-muted">No invitation codes yet.</p>
      ) : (
        <TableRegion label="Invitation codes" className="max-h-96 overflow-y-auto">
          <Table>
            <thead>
              <tr>
                <TableHead>Code</TableHead>
                <TableHead>Status</TableHead>
              </tr>
            </thead>
            <tbody>
              {codes.map((code) => (
                <TableRow key={code.code}>
                  <TableCell className="font-mono break-all">{code.code}</TableCell>
                  <TableCell>
                    <span
                      className={cn(
                        'font-mono text-xs',
                        code.active ? 'text-accent' : 'text-ink-muted',
                      )}
                    >
                      {code.active ? 'Active' : 'Used'}
                    </span>
                  </TableCell>
                </TableRow>
              ))}
            </tbody>
          </Table>
        </TableRegion>
      )}
    </div>
  )
}

function GenerateCodesForm() {
  const id = useId()
  const [count, setCount] = useState('5')
  const [error, setError] = useState<string>()
  const [created, setCreated] = useState<string[]>([])
  const generate = useCreateInviteCodes()
  const inputId = `${id}-count`
  const errorId = `${inputId}-error`

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    if (generate.isPending) return
    const parsed = createInviteCodesBodySchema.safeParse({ count: count.trim() || undefined })
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message)
      return
    }
    setError(undefined)
    generate.mutate(parsed.data.count, {
      onSuccess: (data) => {
        setCreated(data.codes)
        toast({
          title: 'Invite codes created',
          description: `${data.codes.length} new ${data.codes.length === 1 ? 'code' : 'codes'}.`,
        })
      },
      onError: (apiError) =>
        toast({
          title: 'Failed to create invite codes',
          description: apiError.message,
          variant: 'destructive',
        }),
    })
  }

  return (
    <div className="grid gap-3">
      <form noValidate onSubmit={handleSubmit} className="flex flex-wrap items-end gap-3">
        <div className="grid gap-2">
          <Label htmlFor={inputId}>how many codes (1–100)</Label>
          <Input
            id={inputId}
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            className="w-32"
            value={count}
            onChange={(event) => setCount(event.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </div>
        <Button type="submit" disabled={generate.isPending}>
          {generate.isPending ? <Spinner /> : null}[ generate codes ]
        </Button>
        {error ? (
          <p id={errorId} className="basis-full text-sm text-danger">
            {error}
          </p>
        ) : null}
      </form>
      {created.length > 0 ? (
        <div role="status" className="grid gap-1 rounded-sm border border-line p-3">
          <p className="text-sm">New codes, ready to share:</p>
          <ul className="flex flex-wrap gap-x-4 gap-y-1 font-mono text-sm">
            {created.map((code) => (
              <li key={code}>{code}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}
