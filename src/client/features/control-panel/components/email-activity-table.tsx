import type { ControlPanel } from '#contract/control-panel'
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
import { formatActivityDate } from '../lib/format'

export function EmailActivityTable({ emails }: { emails: ControlPanel['email_tracker'] }) {
  if (emails.length === 0) {
    return <p className="text-sm text-ink-muted">No e-mails sent yet.</p>
  }
  return (
    <TableRegion label="Recent email activity">
      <Table stack className="md:min-w-[40rem]">
        <TableHeader>
          <TableRow>
            <TableHead>Date</TableHead>
            <TableHead>Recipient</TableHead>
            <TableHead>Subject</TableHead>
            <TableHead>Status</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {emails.map((email, i) => (
            <TableRow key={`${email.date_created}-${email.email}-${i}`}>
              <TableCell label="Date" className="md:whitespace-nowrap">
                {formatActivityDate(email.date_created)}
              </TableCell>
              <TableCell label="Recipient">{email.email}</TableCell>
              <TableCell label="Subject" className="md:min-w-64">
                {email.subject}
              </TableCell>
              <TableCell label="Status">
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
        </TableBody>
      </Table>
    </TableRegion>
  )
}
