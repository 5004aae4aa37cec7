import { viewerTimeOf } from '#contract/club-time'
import { useEffect, useState } from 'react'
import type { ViewerTimeAnswer, ViewerTimeRequest } from './viewer-time.worker'
import { viewerTimeZone } from './viewer-time-zone'

/**
 * This viewer's own wall time for an instant ('Fri, Dec 18, 1:30 AM CET'), or null when it reads
 * the same as in New York.
 */
export function localTimeOf(date: Date): string | null {
  return viewerTimeOf(date, viewerTimeZone())
}

let worker: Worker | null | undefined
let nextId = 0
const waiting = new Map<number, (local: string | null) => void>()

/** The worker that reads viewers' times, started with the first question; null without one. */
function viewerTimeWorker(): Worker | null {
  if (worker !== undefined) return worker
  try {
    worker = new Worker(new URL('./viewer-time.worker.ts', import.meta.url), { type: 'module' })
    worker.onmessage = (event: MessageEvent<ViewerTimeAnswer>) => {
      waiting.get(event.data.id)?.(event.data.local)
      waiting.delete(event.data.id)
    }
  } catch {
    worker = null
  }
  return worker
}

/**
 * The viewer's own time of `startsAt`, read in a worker: its first reading starts Intl's locale
 * and zone data, a long task on a phone that the page need not wait through. Where there is no
 * worker (tests), read here, in a task of its own.
 */
function readViewerTime(startsAt: string): Promise<string | null> {
  const read = viewerTimeWorker()
  if (!read) {
    return new Promise((resolve) =>
      setTimeout(() => {
        const date = new Date(startsAt)
        resolve(Number.isNaN(date.getTime()) ? null : localTimeOf(date))
      }),
    )
  }
  nextId += 1
  const id = nextId
  return new Promise((resolve) => {
    waiting.set(id, resolve)
    read.postMessage({ id, startsAt } satisfies ViewerTimeRequest)
  })
}

/**
 * The viewer's own time of `startsAt`, or null until it is known or when it reads as in New
 * York. The server does not know the viewer's zone, so a page it rendered shows it once the
 * browser has read it.
 */
function useViewerTime(startsAt: string): string | null {
  const [local, setLocal] = useState<{ startsAt: string; text: string | null } | null>(null)
  useEffect(() => {
    let current = true
    void readViewerTime(startsAt).then((text) => {
      if (current) setLocal({ startsAt, text })
    })
    return () => {
      current = false
    }
  }, [startsAt])
  return local?.startsAt === startsAt ? local.text : null
}

type ClubTimeProps = {
  /** ISO 8601 instant. */
  startsAt: string
  prettyDate: string
  prettyTime: string
  /** 'date' shows only the day. */
  show?: 'date-time' | 'date'
  className?: string
}

/**
 * A podclub's time: New York's, the club's reference, and beside it the viewer's own when their
 * zone differs (once known: `useViewerTime`).
 */
export function ClubTime({
  startsAt,
  prettyDate,
  prettyTime,
  show = 'date-time',
  className,
}: ClubTimeProps) {
  const local = useViewerTime(startsAt)
  return (
    <span className={className}>
      <time dateTime={startsAt}>
        {show === 'date' ? prettyDate : `${prettyDate} @ ${prettyTime}`}
      </time>
      {local && show === 'date-time' ? (
        <span className="block text-sm text-ink-muted">your time: {local}</span>
      ) : null}
    </span>
  )
}
