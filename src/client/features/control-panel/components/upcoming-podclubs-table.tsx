import { useEffect, useState } from 'react'
import {
  noticeNeedsConfirm,
  noticeSummary,
  type ControlPanelPodclub,
} from '#contract/control-panel'
import { PendingButton } from '#client/components/form/pending-button'
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from '#client/components/ui/alert-dialog'
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRegion,
  TableRow,
} from '#client/components/ui/table'
import { toast } from '#client/lib/toast'
import { useTriggerNotice } from '../api/trigger-notice'
import { formatActivityDate } from '../lib/format'
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
] as const
const [ID, TITLE, LOCATION, PODMEISTER, DATE_TIME, WEEK, DAY, TEN_MIN, COMPLETE] = COLUMNS

const LOCATION_LABELS = { zoom: 'Zoom', nyc: 'NYC' } as const

export function UpcomingPodclubsTable({ podclubs }: { podclubs: ControlPanelPodclub[] }) {
  return (
    <PodclubsTable label="Upcoming podclubs" empty="No upcoming podclubs." podclubs={podclubs} />
  )
}

/** The latest completed podclubs, in the columns of the upcoming table, each with its check. */
export function RecentlyCompletedTable({ podclubs }: { podclubs: ControlPanelPodclub[] }) {
  return (
    <PodclubsTable
      label="Recently completed"
      empty="No completed podclubs yet."
      podclubs={podclubs}
    />
  )
}

/** The longest wait a browser timer takes (about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Whether the moment `iso` has come, turning true when it does while the page is open. */
function useHasCome(iso: string): boolean {
  const at = new Date(iso).getTime()
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const wait = at - Date.now()
    if (wait > MAX_TIMER_MS) return
    const timer = setTimeout(() => setNow(Date.now()), Math.max(0, wait))
    return () => clearTimeout(timer)
  }, [at])
  return now >= at
}

type PodclubsTableProps = { label: string; empty: string; podclubs: ControlPanelPodclub[] }

function PodclubsTable({ label, empty, podclubs }: PodclubsTableProps) {
  if (podclubs.length === 0) {
    return <p className="text-sm text-ink-muted">{empty}</p>
  }
  return (
    <TableRegion label={label}>
      {/* A card for each podclub on a phone, the actions on a line of their own. */}
      <Table stack className="md:min-w-[44rem]">
        <TableHeader>
          <TableRow>
            {COLUMNS.map((column) => (
              <TableHead key={column}>{column}</TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {podclubs.map((podclub) => (
            <PodclubRow key={podclub.id} podclub={podclub} idPrefix={label} />
          ))}
        </TableBody>
      </Table>
    </TableRegion>
  )
}

function PodclubRow({ podclub, idPrefix }: { podclub: ControlPanelPodclub; idPrefix: string }) {
  const notice = useTriggerNotice()
  const complete = useTriggerNotice()
  const [isConfirming, setIsConfirming] = useState(false)
  const [noticeToConfirm, setNoticeToConfirm] = useState<string | null>(null)
  const rowId = `${idPrefix.toLowerCase().replace(/\W+/g, '-')}-${podclub.id}`
  const titleId = `${rowId}-title`
  const completeHintId = `${rowId}-complete-hint`
  const isCompleted = podclub.status === 'completed'
  // Mark Complete is refused before the start: the button waits for it and says so.
  const hasStarted = useHasCome(podclub.starts_at)

  // Far from the start the notice says how far, and the operator confirms first.
  function handleSendNoticeClick() {
    const now = new Date()
    const startsAt = new Date(podclub.starts_at)
    if (noticeNeedsConfirm(startsAt, now)) {
      setNoticeToConfirm(noticeSummary({ startsAt, location: podclub.location }, now))
    } else sendNotice(false)
  }

  function sendNotice(confirm: boolean) {
    setNoticeToConfirm(null)
    notice.mutate(
      { podclub_pk: podclub.id, notice_type: 'min', ...(confirm ? { confirm } : {}) },
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

  // Completing is final for members (cred, the past list, hindsights): the operator confirms it.
  function handleMarkComplete() {
    setIsConfirming(false)
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
      <TableCell label={ID} className="font-mono">
        {podclub.id}
      </TableCell>
      {/* Titles and names break anywhere if they must: one long word never widens the table
          past the screen, where its last column (the buttons) would be cut off. */}
      <TableCell
        label={TITLE}
        id={titleId}
        className="[overflow-wrap:anywhere] md:max-w-48 md:min-w-32"
      >
        {podclub.episode_title}
      </TableCell>
      <TableCell label={LOCATION}>
        {podclub.location ? LOCATION_LABELS[podclub.location] : '—'}
      </TableCell>
      <TableCell label={PODMEISTER} className="[overflow-wrap:anywhere]">
        {podclub.podmeister}
      </TableCell>
      <TableCell label={DATE_TIME} className="md:min-w-36">
        {podclub.pretty_date}
        <br />
        <span className="text-ink-muted">{podclub.pretty_time}</span>
      </TableCell>
      <TableCell label={WEEK}>
        <StatusMark done={podclub.one_week_notice_sent} doneLabel="sent" notDoneLabel="not sent" />
      </TableCell>
      <TableCell label={DAY}>
        <StatusMark done={podclub.one_day_notice_sent} doneLabel="sent" notDoneLabel="not sent" />
      </TableCell>
      <TableCell label={TEN_MIN}>
        {/* A podclub that is over has nothing left to send: its state only. */}
        {podclub.ten_min_notice_sent || isCompleted ? (
          <StatusMark done={podclub.ten_min_notice_sent} doneLabel="sent" notDoneLabel="not sent" />
        ) : (
          <>
            <PendingButton
              type="button"
              size="sm"
              variant="outline"
              aria-describedby={titleId}
              isPending={notice.isPending}
              pendingLabel="Sending..."
              onClick={handleSendNoticeClick}
            >
              Send Notice
            </PendingButton>
            <AlertDialog
              open={noticeToConfirm !== null}
              onOpenChange={(open) => {
                if (!open) setNoticeToConfirm(null)
              }}
            >
              <AlertDialogContent>
                <AlertDialogTitle>Send the notice now?</AlertDialogTitle>
                <AlertDialogDescription>
                  &lsquo;{podclub.episode_title}&rsquo;: {noticeToConfirm}
                </AlertDialogDescription>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <AlertDialogAction onClick={() => sendNotice(true)}>
                    Yes, Send Notice
                  </AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </>
        )}
        {podclub.notice_sent_at ? (
          <p className="mt-1 text-xs text-ink-muted">
            notice sent {formatActivityDate(podclub.notice_sent_at)}
          </p>
        ) : null}
      </TableCell>
      <TableCell label={COMPLETE}>
        {isCompleted ? (
          <StatusMark done doneLabel="completed" notDoneLabel="not completed" />
        ) : (
          <>
            <PendingButton
              type="button"
              size="sm"
              variant="outline"
              aria-describedby={hasStarted ? titleId : `${titleId} ${completeHintId}`}
              isPending={complete.isPending}
              disabled={!hasStarted}
              onClick={() => setIsConfirming(true)}
            >
              Mark Complete
            </PendingButton>
            {hasStarted ? null : (
              <p id={completeHintId} className="mt-1 text-xs text-ink-muted">
                from its start
              </p>
            )}
            <AlertDialog open={isConfirming} onOpenChange={setIsConfirming}>
              <AlertDialogContent>
                <AlertDialogTitle>Mark this podclub complete?</AlertDialogTitle>
                <AlertDialogDescription>
                  &lsquo;{podclub.episode_title}&rsquo; on {podclub.pretty_date} at{' '}
                  {podclub.pretty_time} becomes a past podclub: its members earn cred and can post
                  hindsights. Only a podclub that has started can be completed.
                </AlertDialogDescription>
                <AlertDialogFooter>
                  <AlertDialogCancel>Cancel</AlertDialogCancel>
                  <AlertDialogAction onClick={handleMarkComplete}>
                    Yes, Mark Complete
                  </AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </>
        )}
      </TableCell>
    </TableRow>
  )
}
