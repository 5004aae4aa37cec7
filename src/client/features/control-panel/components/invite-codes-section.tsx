import { useState } from 'react'
import { createInviteCodesBodySchema, type ControlPanel } from '#contract/control-panel'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRegion,
  TableRow,
} from '#client/components/ui/table'
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
            <TableHeader>
              <TableRow>
                <TableHead>Code</TableHead>
                <TableHead>Status</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {codes.map((code) => (
                <TableRow key={code.code}>
                  <TableCell className="font-mono">{code.code}</TableCell>
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
            </TableBody>
          </Table>
        </TableRegion>
      )}
    </div>
  )
}

function GenerateCodesForm() {
  const form = useContractForm(createInviteCodesBodySchema, { defaultValues: { count: '5' } })
  const [created, setCreated] = useState<string[]>([])
  const generate = useCreateInviteCodes()

  const handleSubmit = form.handleSubmit(({ count }) =>
    generate.mutate(count, {
      onSuccess: (data) => {
        setCreated(data.codes)
        toast({
          title: 'Invite codes created',
          description: `${data.codes.length} new ${data.codes.length === 1 ? 'code' : 'codes'}.`,
        })
      },
      onError: (error) => showServerError(form, error, { title: 'Failed to create invite codes' }),
    }),
  )

  return (
    <div className="grid gap-3">
      <form noValidate onSubmit={handleSubmit} className="flex flex-wrap items-start gap-3">
        <Field
          label="how many codes (1–100)"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          // Narrow, so a message under the box wraps rather than pushing the button away.
          className="max-w-60"
          controlClassName="max-w-32"
          error={form.formState.errors.count?.message}
          {...form.register('count')}
        />
        {/* Level with the input: below the label's line and the gap under it. */}
        <PendingButton isPending={generate.isPending} className="mt-7">
          [ generate codes ]
        </PendingButton>
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
