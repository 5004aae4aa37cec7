import { useState } from 'react'
import type { ControlPanel } from '#contract/control-panel'
import { Button } from '#client/components/ui/button'
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

/** E-mails a page shows: a phone screen or two of stacked rows, not one long column. */
export const EMAILS_PER_PAGE = 10

export function EmailActivityTable({ emails }: { emails: ControlPanel['email_tracker'] }) {
  const [page, setPage] = useState(0)
  if (emails.length === 0) {
    return <p className="text-sm text-ink-muted">No e-mails sent yet.</p>
  }
  const pages = Math.ceil(emails.length / EMAILS_PER_PAGE)
  // A refresh may bring fewer e-mails than the page open: the last page there is.
  const current = Math.min(page, pages - 1)
  const first = current * EMAILS_PER_PAGE
  const shown = emails.slice(first, first + EMAILS_PER_PAGE)
  return (
    <div className="grid min-w-0 gap-3">
      <EmailTable emails={shown} first={first} />
      {pages > 1 ? (
        <nav
          aria-label="e-mail activity pages"
          className="flex flex-wrap items-center justify-between gap-2"
        >
          <p className="font-mono text-sm text-ink-muted" aria-live="polite">
            {first + 1}–{first + shown.length} of {emails.length}, newest first
          </p>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={current === 0}
              onClick={() => setPage(current - 1)}
            >
              [ newer ]
            </Button>
            <Button
              variant="outline"
              size="sm"
              disabled={current >= pages - 1}
              onClick={() => setPage(current + 1)}
            >
              [ older ]
            </Button>
          </div>
        </nav>
      ) : null}
    </div>
  )
}

function EmailTable({ emails, first }: { emails: ControlPanel['email_tracker']; first: number }) {
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
            <TableRow key={`${email.date_created}-${email.email}-${first + i}`}>
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
