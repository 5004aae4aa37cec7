import { Link } from 'react-router'
import { longClubDate } from '#contract/club-time'
import type { Profile, ProfilePodclub } from '#contract/profile'
import { ClubTime } from '#client/components/club-time'
import { Avatar } from '#client/components/ui/avatar'
import { Badge } from '#client/components/ui/badge'
import { Button } from '#client/components/ui/button'
import { Card, CardTitle } from '#client/components/ui/card'
import { CalendarLinkCard } from './calendar-link-card'
import { OwnDataCard } from './own-data-card'

function memberSince(iso: string) {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? '' : longClubDate(date)
}

function UpcomingItem({ podclub }: { podclub: ProfilePodclub }) {
  return (
    <li className="flex flex-col gap-3 border-b border-line pb-4 last:border-b-0 last:pb-0 sm:flex-row sm:items-center">
      {podclub.podcast.picture_link ? (
        <img
          src={podclub.podcast.picture_link}
          alt=""
          width={56}
          height={56}
          className="size-14 shrink-0 rounded-sm border border-line object-cover"
        />
      ) : null}
      <div className="grid min-w-0 flex-1 gap-1">
        <p className="font-mono text-sm text-ink-muted">{podclub.podcast.name}</p>
        <h3 className="font-semibold">{podclub.episode_title}</h3>
        <div>
          <Badge className="whitespace-normal">
            <ClubTime
              startsAt={podclub.starts_at}
              prettyDate={podclub.pretty_date}
              prettyTime={podclub.pretty_time}
            />
          </Badge>
        </div>
      </div>
      <Link
        to={`/podclubs/${podclub.id}`}
        className="font-mono text-sm text-accent underline-offset-4 hover:underline"
        aria-label={`view ${podclub.episode_title}`}
      >
        [ view ]
      </Link>
    </li>
  )
}

/** How the member took part, in the words of the counts above the list. */
const ROLE_LABELS = { podmeister: 'hosted', attendee: 'attended' } as const

function PastItem({ podclub }: { podclub: ProfilePodclub }) {
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 border-b border-line pb-3 last:border-b-0 last:pb-0">
      <span>
        <span className="block font-semibold">{podclub.episode_title}</span>
        <span className="text-sm text-ink-muted">
          {podclub.pretty_date} · {ROLE_LABELS[podclub.role]}
        </span>
      </span>
      <Link
        to={`/podclubs/${podclub.id}`}
        className="font-mono text-sm text-accent underline-offset-4 hover:underline"
        aria-label={`view discussion of ${podclub.episode_title}`}
      >
        view discussion
      </Link>
    </li>
  )
}

/**
 * The member's page: who they are, their cred, their upcoming and past podclubs, their
 * calendar link, and their own data (a copy, or deleting the account).
 */
export function ProfileView({ profile }: { profile: Profile }) {
  const { user } = profile
  // The counts of the past podclubs below, by how the member took part; cred is their sum.
  const stats = [
    { label: 'podclubs attended', value: user.profile.completed_podclub_count },
    { label: 'podclubs hosted', value: user.profile.completed_podmeister_count },
    { label: 'cred', value: user.profile.cred ?? 0 },
  ]
  return (
    <div className="grid gap-6">
      <Card aria-label="member" className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <Avatar name={user.username} size="lg" />
        <div className="grid gap-1">
          <p className="font-mono text-xl font-semibold">
            [{user.profile.cred}] {user.username}
          </p>
          <p className="break-all text-ink-muted">{user.email}</p>
          <p className="text-sm">city: {user.profile.city.trim() || 'not set'}</p>
          <p className="text-sm">member since {memberSince(user.profile.member_since)}</p>
        </div>
      </Card>

      <dl className="grid grid-cols-3 gap-3">
        {stats.map((s) => (
          <div
            key={s.label}
            className="rounded-sm border border-line bg-paper-raised p-3 text-center"
          >
            <dt className="font-mono text-xs text-ink-muted sm:text-sm">{s.label}</dt>
            <dd className="font-mono text-2xl font-semibold">{s.value}</dd>
          </div>
        ))}
      </dl>

      <Card aria-labelledby="upcoming-title">
        <CardTitle id="upcoming-title">upcoming podclubs</CardTitle>
        {profile.upcoming_podclubs.length === 0 ? (
          <div className="grid justify-items-start gap-3">
            <p>no upcoming podclubs, go sign up for one!</p>
            <Button asChild variant="outline">
              <Link to="/home?skipSplash=true">browse podclubs</Link>
            </Button>
          </div>
        ) : (
          <ul className="grid gap-4">
            {profile.upcoming_podclubs.map((p) => (
              <UpcomingItem key={p.id} podclub={p} />
            ))}
          </ul>
        )}
      </Card>

      <CalendarLinkCard calendarUrl={profile.calendar_url} />

      <Card aria-labelledby="past-title">
        <CardTitle id="past-title">past podclubs</CardTitle>
        {profile.past_podclubs.length === 0 ? (
          <p>
            no past podclubs, your podclub history will appear here after you&apos;ve participated
            in your first discussion
          </p>
        ) : (
          <ul className="grid gap-3">
            {profile.past_podclubs.map((p) => (
              <PastItem key={p.id} podclub={p} />
            ))}
          </ul>
        )}
      </Card>

      <OwnDataCard />
    </div>
  )
}
