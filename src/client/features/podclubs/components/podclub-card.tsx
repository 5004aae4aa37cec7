import { useState } from 'react'
import { Link } from 'react-router'
import type { Podclub } from '#contract/podclubs'
import { Button } from '#client/components/ui/button'
import { ExpandableText } from '#client/components/ui/expandable-text'
import { PodcastPicture } from '#client/components/ui/podcast-picture'
import { Spinner } from '#client/components/ui/spinner'
import { deriveLinks } from '#client/lib/links'
import { seatLabel, shareToXUrl } from '../lib/share'

const LOCATION_LABELS = { zoom: 'Online', nyc: 'NYC' } as const

export type PodclubCardProps = {
  podclub: Podclub
  /** The logged-in member's username; null for a visitor. */
  username: string | null
  /** A register or cancel of this card is on its way. */
  isPending: boolean
  onToggle: (podclub: Podclub, isRegistered: boolean) => void
  /** A join or leave of this card's seat waitlist is on its way. */
  isWaitlistPending: boolean
  onToggleWaitlist: (podclub: Podclub, isWaitlisted: boolean) => void
  /** For the share text: the club code and the public address. */
  share: { clubInviteCode: string; appUrl: string }
}

/** Spec 1 §2 'podclub card' and §4: what it shows and its five states. */
export function PodclubCard({
  podclub,
  username,
  isPending,
  onToggle,
  isWaitlistPending,
  onToggleWaitlist,
  share,
}: PodclubCardProps) {
  const isRegistered = !!username && podclub.api_registered_usernames.reserved.includes(username)
  const isHost = !!username && podclub.podmeister.username === username
  // The feed lists a podclub until an operator completes it; once it has begun, the server
  // refuses seat changes, so the card stops offering them.
  const [shownAt] = useState(Date.now)
  const hasStarted = new Date(podclub.starts_at).getTime() <= shownAt
  const links = deriveLinks([podclub.link_one, podclub.link_two, podclub.link_three])
  const keywords = [podclub.keyword_one, podclub.keyword_two, podclub.keyword_three]
    .map((k) => k.trim())
    .filter(Boolean)
    .slice(0, 3)
  const titleId = `podclub-${podclub.id}-title`

  return (
    <article
      aria-labelledby={titleId}
      className="flex h-full flex-col gap-4 rounded-sm border border-line bg-paper-raised p-5"
    >
      <header className="flex items-start gap-3">
        <PodcastPicture name={podclub.podcast.name} src={podclub.podcast.picture_link} />
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg leading-snug font-semibold text-balance">
            <Link to={`/podclubs/${podclub.id}`} className="hover:underline">
              {podclub.episode_title}
            </Link>
          </h2>
          <p className="font-mono text-sm text-ink-muted">{podclub.podcast.name}</p>
        </div>
      </header>

      {podclub.description ? (
        <ExpandableText text={podclub.description} className="text-sm" />
      ) : null}

      {podclub.podmeister_note ? (
        <figure className="border-l-2 border-accent pl-3 text-sm">
          <blockquote>
            <ExpandableText text={podclub.podmeister_note} quoted className="italic" />
          </blockquote>
          <figcaption className="mt-1 font-mono text-xs text-ink-muted">
            — {podclub.podmeister.username}, podmeister
          </figcaption>
        </figure>
      ) : null}

      {links.length > 0 ? (
        <ul aria-label="Listen" className="flex flex-wrap gap-2">
          {links.map((link) => {
            return (
              <li key={link.url}>
                <a
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-1 rounded-sm border border-line px-2 py-1 font-mono text-xs hover:bg-accent-soft"
                >
                  <span aria-hidden>{link.type === 'external' ? '↗' : '▶'}</span>
                  {link.label}
                </a>
              </li>
            )
          })}
        </ul>
      ) : null}

      {keywords.length > 0 ? (
        <ul aria-label="Keywords" className="flex flex-wrap gap-1.5">
          {keywords.map((k) => (
            <li
              key={k}
              className="rounded-full bg-accent-soft px-2.5 py-0.5 font-mono text-xs text-accent-strong"
            >
              {k}
            </li>
          ))}
        </ul>
      ) : null}

      <dl className="mt-auto grid gap-1 font-mono text-sm">
        <Fact term="date" value={podclub.pretty_date} />
        <Fact term="time" value={podclub.pretty_time} />
        <Fact
          term="where"
          value={podclub.location ? LOCATION_LABELS[podclub.location] : 'Online'}
        />
      </dl>
      <p className="font-mono text-sm font-semibold">{seatLabel(podclub.seats_left)}</p>

      <div className="flex flex-wrap items-center gap-2">
        {!username ? (
          <Button asChild variant="outline">
            <Link to="/login">[ login to register ]</Link>
          </Button>
        ) : hasStarted && !isHost ? (
          <p className="w-full text-sm">
            {isRegistered
              ? "It's on now: you have a seat, see you there!"
              : 'This podclub has started: seats can no longer change.'}
          </p>
        ) : isHost ? (
          <>
            <p className="w-full text-sm">You&apos;re the podmeister of this one.</p>
            <ShareButton podclub={podclub} share={share} />
          </>
        ) : isRegistered ? (
          <>
            <p className="w-full text-sm">You&apos;re registered, see you there!</p>
            <ShareButton podclub={podclub} share={share} />
            <Button
              variant="outline"
              disabled={isPending}
              aria-busy={isPending || undefined}
              onClick={() => onToggle(podclub, true)}
            >
              {isPending ? <Spinner /> : null}[ cancel ]
            </Button>
          </>
        ) : podclub.seats_left <= 0 ? (
          <SeatWaitlistControls
            podclub={podclub}
            username={username}
            isPending={isWaitlistPending}
            onToggle={onToggleWaitlist}
          />
        ) : (
          <Button
            disabled={isPending}
            aria-busy={isPending || undefined}
            onClick={() => onToggle(podclub, false)}
          >
            {isPending ? <Spinner /> : null}[ register ]
          </Button>
        )}
      </div>
    </article>
  )
}

/**
 * Beyond the spec: a full podclub keeps its disabled '[ registration full ]' and offers its seat
 * waitlist beside it. The texts say 'seat waitlist', never plain 'waitlist', so nobody mistakes
 * it for the club's invite waitlist at /waitlist.
 */
function SeatWaitlistControls({
  podclub,
  username,
  isPending,
  onToggle,
}: {
  podclub: Podclub
  username: string
  isPending: boolean
  onToggle: (podclub: Podclub, isWaitlisted: boolean) => void
}) {
  const place = podclub.seat_waitlist.waiting.indexOf(username) + 1
  const isWaitlisted = place > 0
  const others = podclub.waitlist_count - (isWaitlisted ? 1 : 0)
  const noteId = `podclub-${podclub.id}-seat-waitlist`
  return (
    <>
      {/* Polite live region: joining or leaving reads the new place out once the feed reloads. */}
      <p id={noteId} aria-live="polite" className="w-full text-sm">
        {isWaitlisted ? (
          <>
            <strong className="font-mono">#{place} on the seat waitlist.</strong> A freed seat goes
            to you in turn, and we&apos;ll <span className="whitespace-nowrap">e-mail</span> you.
          </>
        ) : others > 0 ? (
          `${others} on the seat waitlist. Join and a freed seat comes to you in turn.`
        ) : (
          'Join the seat waitlist and the next freed seat is yours.'
        )}
      </p>
      <Button disabled>[ registration full ]</Button>
      <Button
        variant="outline"
        disabled={isPending}
        aria-busy={isPending || undefined}
        aria-describedby={noteId}
        onClick={() => onToggle(podclub, isWaitlisted)}
      >
        {isPending ? <Spinner /> : null}
        {isWaitlisted ? '[ leave waitlist ]' : '[ join waitlist ]'}
      </Button>
    </>
  )
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div className="flex gap-2">
      <dt className="w-12 shrink-0 text-ink-muted">{term}</dt>
      <dd>{value}</dd>
    </div>
  )
}

function ShareButton({ podclub, share }: Pick<PodclubCardProps, 'podclub' | 'share'>) {
  return (
    <Button asChild variant="outline">
      <a
        href={shareToXUrl(podclub, share.clubInviteCode, share.appUrl)}
        target="_blank"
        rel="noopener noreferrer"
      >
        [ share to x ]
      </a>
    </Button>
  )
}
