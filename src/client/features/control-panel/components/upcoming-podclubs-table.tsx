import type { ControlPanelPodclub } from '#contract/control-panel'
import { PendingButton } from '#client/components/form/pending-button'
import { Table, TableCell, TableHead, TableRegion, TableRow } from '#client/components/ui/table'
import { toast } from '#client/lib/toast'
import { useTriggerNotice } from '../api/trigger-notice'
import { StatusMark } from './status-mark'

const COLUMNS = [
  'ID',
  'Title',
  'Location',
  'Podmeister',
  'Date & Time',
  '1 Week Notice',
  '1 Day Notice',
  '10 Min Notice',
  'Complete',
]

const LOCATION_LABELS = { zoom: 'Zoom', nyc: 'NYC' } as const

export function UpcomingPodclubsTable({ podclubs }: { podclubs: ControlPanelPodclub[] }) {
  if (podclubs.length === 0) {
    return <p className="text-sm text-ink-muted">No upcoming podclubs.</p>
  }
  return (
    <TableRegion label="Upcoming podclubs">
      <Table className="min-w-[46rem]">
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <TableHead key={column}>{column}</TableHead>
            ))}
          </tr>
        </thead>
        <tbody>
          {podclubs.map((podclub) => (
            <PodclubRow key={podclub.id} podclub={podclub} />
          ))}
        </tbody>
      </Table>
    </TableRegion>
  )
}

function PodclubRow({ podclub }: { podclub: ControlPanelPodclub }) {
  const notice = useTriggerNotice()
  const complete = useTriggerNotice()
  const titleId = `podclub-${podclub.id}-title`
  const isCompleted = podclub.status === 'completed'

  function handleSendNotice() {
    notice.mutate(
      { podclub_pk: podclub.id, notice_type: 'min' },
      {
        onSuccess: () => toast({ title: '10-minute notice sent successfully' }),
        onError: (error) =>
          toast({
            title: 'Failed to send notice',
            description: error.message,
            variant: 'destructive',
          }),
      },
    )
  }

  function handleMarkComplete() {
    complete.mutate(
      { podclub_pk: podclub.id, notice_type: 'complete' },
      {
        onSuccess: () => toast({ title: 'podclub marked as complete' }),
        onError: (error) =>
          toast({
            title: 'Failed to complete podclub',
            description: error.message,
            variant: 'destructive',
          }),
      },
    )
  }

  return (
    <TableRow>
      <TableCell className="font-mono">{podclub.id}</TableCell>
      <TableCell id={titleId} className="max-w-56 min-w-36">
        {podclub.episode_title}
      </TableCell>
      <TableCell>{podclub.location ? LOCATION_LABELS[podclub.location] : '—'}</TableCell>
      <TableCell>{podclub.podmeister}</TableCell>
      <TableCell className="min-w-36">
        {podclub.pretty_date}
        <br />
        <span className="text-ink-muted">{podclub.pretty_time}</span>
      </TableCell>
      <TableCell>
        <StatusMark done={podclub.one_week_notice_sent} doneLabel="sent" notDoneLabel="not sent" />
      </TableCell>
      <TableCell>
        <StatusMark done={podclub.one_day_notice_sent} doneLabel="sent" notDoneLabel="not sent" />
      </TableCell>
      <TableCell>
        {podclub.ten_min_notice_sent ? (
          <StatusMark done doneLabel="sent" notDoneLabel="not sent" />
        ) : (
          <PendingButton
            type="button"
            size="sm"
            variant="outline"
            aria-describedby={titleId}
            isPending={notice.isPending}
            pendingLabel="Sending..."
            disabled={isCompleted}
            onClick={handleSendNotice}
          >
            Send Notice
          </PendingButton>
        )}
      </TableCell>
      <TableCell>
        {isCompleted ? (
          <StatusMark done doneLabel="completed" notDoneLabel="not completed" />
        ) : (
          <PendingButton
            type="button"
            size="sm"
            variant="outline"
            aria-describedby={titleId}
            isPending={complete.isPending}
            onClick={handleMarkComplete}
          >
            Mark Complete
          </PendingButton>
        )}
      </TableCell>
    </TableRow>
  )
}
