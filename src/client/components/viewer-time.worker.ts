// The viewer's own time of a podclub, read away from the page: its first reading starts Intl's
// locale and time-zone data, a long task on a slow phone (club-time.tsx asks here).
import { viewerTimeOf } from '#contract/club-time'
import { viewerTimeZone } from './viewer-time-zone'

export type ViewerTimeRequest = { id: number; startsAt: string }
export type ViewerTimeAnswer = { id: number; local: string | null }

self.onmessage = (event: MessageEvent<ViewerTimeRequest>) => {
  const { id, startsAt } = event.data
  const date = new Date(startsAt)
  const local = Number.isNaN(date.getTime()) ? null : viewerTimeOf(date, viewerTimeZone())
  self.postMessage({ id, local } satisfies ViewerTimeAnswer)
}
