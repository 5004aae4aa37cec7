import { CalendarPlus, ExternalLink } from 'lucide-react'
import type { ReactNode } from 'react'
import type { PodclubDetail } from '#contract/podclub-detail'
import { ClubTime } from '#client/components/club-time'
import { Badge } from '#client/components/ui/badge'
import { Card, CardTitle } from '#client/components/ui/card'
import { LinkifiedText } from '#client/components/ui/linkified-text'
import { deriveLinks } from '#client/lib/links'
import { podclubCalendarUrl } from '../api/get-podclub-calendar'
import { PodcastPicture } from '#client/components/ui/podcast-picture'

const LOCATIONS = { zoom: 'Zoom (online)', nyc: 'NYC Office' } as const

function seatsLabel(n: number) {
  if (n === 0) return 'No seats left'
  return n === 1 ? '1 seat left' : `${n} seats left`
}

/** Picture, podcast, episode and up to three keywords. */
export function PodclubHeader({ podclub }: { podclub: PodclubDetail }) {
  const keywords = [podclub.keyword_one, podclub.keyword_two, podclub.keyword_three]
    .filter((k) => k.trim() !== '')
    .slice(0, 3)
  return (
    <header className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <PodcastPicture
        name={podclub.podcast.name}
        src={podclub.podcast.picture_link}
        size="lg"
        alt={`${podclub.podcast.name} cover`}
      />
      <div className="grid gap-2">
        <p className="font-mono text-sm text-ink-muted">{podclub.podcast.name}</p>
        <h1 className="font-mono text-2xl font-semibold tracking-tight text-balance sm:text-3xl">
          {podclub.episode_title}
        </h1>
        {keywords.length > 0 ? (
          <ul className="flex flex-wrap gap-2" aria-label="keywords">
            {keywords.map((k) => (
              <li key={k}>
                <Badge>{k}</Badge>
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </header>
  )
}

/** Who took part in a completed podclub: 'maya.r (podmeister), jon.b and priya'. */
function attendedLabel(podclub: PodclubDetail) {
  const names = [
    `${podclub.podmeister.username} (podmeister)`,
    ...podclub.api_registered_usernames.reserved.map((a) => a.username),
  ]
  return names.length === 1
    ? names[0]
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`
}

/**
 * Date and time, location, seats (who attended, once completed), status, description, podmeister note and links. `seatAction`
 * (taking a seat, the podclubs feature's) goes right under the seats.
 */
export function PodclubDetailsCard({
  podclub,
  seatAction,
}: {
  podclub: PodclubDetail
  seatAction?: ReactNode
}) {
  const links = deriveLinks(podclub.links)
  return (
    <Card aria-labelledby="details-title">
      <CardTitle id="details-title">details</CardTitle>
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
        <dt className="font-mono text-sm text-ink-muted">date and time</dt>
        <dd className="grid justify-items-start gap-1">
          <ClubTime
            startsAt={podclub.starts_at}
            prettyDate={podclub.pretty_date}
            prettyTime={podclub.pretty_time}
          />
          {podclub.status === 'upcoming' ? (
            <a
              href={podclubCalendarUrl(podclub.id)}
              download={`podclub-${podclub.id}.ics`}
              className="-my-1 inline-flex items-center gap-1 py-1 font-mono text-sm text-accent underline underline-offset-2"
            >
              <CalendarPlus aria-hidden className="size-3.5" />
              add to calendar
            </a>
          ) : null}
        </dd>
        <dt className="font-mono text-sm text-ink-muted">location</dt>
        <dd>{podclub.location ? LOCATIONS[podclub.location] : 'Online'}</dd>
        {podclub.status === 'upcoming' ? (
          <>
            <dt className="font-mono text-sm text-ink-muted">seats available</dt>
            <dd>{seatsLabel(podclub.seats_left)}</dd>
          </>
        ) : null}
        {podclub.status === 'completed' ? (
          <>
            <dt className="font-mono text-sm text-ink-muted">attended</dt>
            <dd>{attendedLabel(podclub)}</dd>
          </>
        ) : null}
        {podclub.status === 'upcoming' && podclub.waitlist_count > 0 ? (
          <>
            <dt className="font-mono text-sm text-ink-muted">seat waitlist</dt>
            <dd>{podclub.waitlist_count} waiting for a freed seat</dd>
          </>
        ) : null}
        <dt className="font-mono text-sm text-ink-muted">status</dt>
        <dd>
          <Badge variant="outline">{podclub.status}</Badge>
        </dd>
      </dl>
      {seatAction ? <div className="mt-5">{seatAction}</div> : null}
      {podclub.description ? (
        <div className="mt-5 grid gap-1">
          <h3 className="font-mono text-sm text-ink-muted">description</h3>
          <p className="whitespace-pre-line">
            <LinkifiedText text={podclub.description} />
          </p>
        </div>
      ) : null}
      {podclub.podmeister_note ? (
        <div className="mt-5 grid gap-1">
          <h3 className="font-mono text-sm text-ink-muted">podmeister note</h3>
          <blockquote className="border-l-2 border-accent pl-3 whitespace-pre-line italic">
            “<LinkifiedText text={podclub.podmeister_note} />”
            <footer className="mt-1 font-mono text-sm not-italic">
              — {podclub.podmeister.username}
            </footer>
          </blockquote>
        </div>
      ) : null}
      {links.length > 0 ? (
        <div className="mt-5 grid gap-1">
          <h3 className="font-mono text-sm text-ink-muted">links</h3>
          <ul className="flex flex-wrap gap-3">
            {links.map((link) => (
              <li key={link.url}>
                <a
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 font-mono text-sm text-accent underline underline-offset-2"
                >
                  {link.label}
                  <ExternalLink aria-hidden className="size-3.5" />
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </Card>
  )
}

/**
 * 'n member(s) attending' ('attended' once completed): the podmeister first with a badge, then
 * the others, cred in brackets.
 */
export function AttendeesCard({ podclub }: { podclub: PodclubDetail }) {
  const reserved = podclub.api_registered_usernames.reserved
  const total = reserved.length + 1
  const verb = podclub.status === 'completed' ? 'attended' : 'attending'
  return (
    <Card aria-labelledby="attendees-title">
      <CardTitle id="attendees-title">
        {total} member(s) {verb}
      </CardTitle>
      <ul className="grid gap-2">
        <li className="flex flex-wrap items-center gap-2">
          <span className="font-mono">[{podclub.podmeister.profile.cred}]</span>
          <span>{podclub.podmeister.username}</span>
          <Badge variant="default">podmeister</Badge>
        </li>
        {/* Keyed by place too: former members of a past podclub share one name. */}
        {reserved.map((a, i) => (
          <li key={`${i}-${a.username}`} className="flex items-center gap-2">
            <span className="font-mono">[{a.cred}]</span>
            <span>{a.username}</span>
          </li>
        ))}
      </ul>
    </Card>
  )
}
