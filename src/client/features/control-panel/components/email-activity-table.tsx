import type { ControlPanel } from '#contract/control-panel'
import { Table, TableCell, TableHead, TableRegion, TableRow } from '#client/components/ui/table'
import { cn } from '#client/lib/cn'
import { formatActivityDate } from '../lib/format'

export function EmailActivityTable({ emails }: { emails: ControlPanel['email_tracker'] }) {
  if (emails.length === 0) {
    return <p className="text-sm text-ink-muted">No e-mails sent yet.</p>
  }
  return (
    <TableRegion label="Recent email activity">
      <Table className="min-w-[40rem]">
        <thead>
          <tr>
            <TableHead>Date</TableHead>
            <TableHead>Recipient</TableHead>
            <TableHead>Subject</TableHead>
            <TableHead>Status</TableHead>
          </tr>
        </thead>
        <tbody>
          {emails.map((email, i) => (
            <TableRow key={`${email.date_created}-${email.email}-${i}`}>
              <TableCell className="whitespace-nowrap">
                {formatActivityDate(email.date_created)}
              </TableCell>
              {/* The table scrolls on a phone: an address stays whole rather than split. */}
              <TableCell className="whitespace-nowrap">{email.email}</TableCell>
              <TableCell className="min-w-64">{email.subject}</TableCell>
              <TableCell>
                <span
                  className={cn(
                    'rounded-sm px-2 py-0.5 font-mono text-xs',
                    email.success
                      ? 'bg-accent-soft text-accent-strong'
                      : 'bg-danger-soft text-danger',
                  )}
                >
                  {email.success ? 'Delivered' : 'Failed'}
                </span>
              </TableCell>
            </TableRow>
          ))}
        </tbody>
      </Table>
    </TableRegion>
  )
}
