import { useEffect, useState } from 'react'
import { Link, useLocation } from 'react-router'
import type { Podclub } from '#contract/podclubs'
import { Button } from '#client/components/ui/button'
import { Spinner } from '#client/components/ui/spinner'
import { isApiError } from '#client/lib/api-client'
import { newIdempotencyKey } from '#client/lib/idempotency-key'
import { loginPath } from '#client/lib/login-path'
import { toast } from '#client/lib/toast'
import { usePublicConfig } from '#client/features/config/api/get-public-config'
import { useToggleRegistration } from '../api/toggle-registration'
import { useToggleSeatWaitlist } from '../api/toggle-seat-waitlist'
import { shareToXUrl } from '../lib/share'

/**
 * What the seat action reads of a podclub. The feed's podclub and the detail page's both fit:
 * spec 1 §3 allows each reserved item to be a username or an object holding one.
 */
export type SeatPodclub = Pick<
  Podclub,
  | 'id'
  | 'status'
  | 'starts_at'
  | 'seats_left'
  | 'waitlist_count'
  | 'seat_waitlist'
  | 'episode_title'
  | 'pretty_date'
  | 'podcast'
> & {
  podmeister: { username: string }
  api_registered_usernames: { reserved: ReadonlyArray<string | { username: string }> }
}

export type SeatActionProps = {
  podclub: SeatPodclub
  /** The logged-in member's username; null for a visitor. */
  username: string | null
}

function holdsSeat(podclub: SeatPodclub, username: string) {
  return podclub.api_registered_usernames.reserved.some(
    (item) => (typeof item === 'string' ? item : item.username) === username,
  )
}

/**
 * Spec 1 §4 'podclub card', the one way to take a seat, on the card and on the detail page:
 * a visitor is sent to log in and back; a member registers, cancels, or waits for a seat of a
 * full podclub. Each press sends its own `Idempotency-Key`; the feed and the podclub's detail
 * reload once it is done, so both show the new state.
 */
export function SeatAction({ podclub, username }: SeatActionProps) {
  const location = useLocation()
  const toggle = useToggleRegistration((state) =>
    toast({
      title: state.registered
        ? 'Successfully registered for the podclub'
        : 'Successfully canceled registration',
    }),
  )
  const waitlist = useToggleSeatWaitlist((state) =>
    toast(
      state.waitlisted
        ? {
            title: 'Joined the seat waitlist',
            description: state.position
              ? `You're #${state.position} in line for a freed seat.`
              : undefined,
          }
        : { title: 'Left the seat waitlist' },
    ),
  )
  // Loaded with the action, so the share link has the club code the moment a seat is taken.
  const config = usePublicConfig()
  // The server refuses seat changes once a podclub has begun, so the page stops offering them,
  // also on a page left open across the start.
  const hasStarted = useHasStarted(podclub.starts_at)

  if (podclub.status !== 'upcoming') return null

  if (!username) {
    return (
      <div className="flex flex-wrap items-center gap-2">
        <Button asChild variant="outline">
          <Link to={loginPath(`${location.pathname}${location.search}`)}>
            [ login to register ]
          </Link>
        </Button>
      </div>
    )
  }

  const shareHref = shareToXUrl(
    podclub,
    config.data?.club_invite_code ?? '',
    config.data?.app_url ?? window.location.origin,
  )
  const isRegistered = holdsSeat(podclub, username)
  const isHost = podclub.podmeister.username === username

  const onToggle = () => {
    // One press, one key: the mutation's own retries reuse it.
    toggle.mutate(
      { podclubId: podclub.id, idempotencyKey: newIdempotencyKey() },
      {
        onError: (error) =>
          toast({
            title: isRegistered ? 'Failed to cancel registration' : 'Registration failed',
            description: isApiError(error) ? error.message : undefined,
            variant: 'destructive',
          }),
      },
    )
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      {hasStarted && !isHost ? (
        <p className="w-full text-sm">
          {isRegistered
            ? "It's on now: you have a seat, see you there!"
            : 'This podclub has started: seats can no longer change.'}
        </p>
      ) : isHost ? (
        <>
          <p className="w-full text-sm">You&apos;re the podmeister of this one.</p>
          <ShareButton href={shareHref} />
        </>
      ) : isRegistered ? (
        <>
          <p className="w-full text-sm">You&apos;re registered, see you there!</p>
          <ShareButton href={shareHref} />
          <Button
            variant="outline"
            disabled={toggle.isPending}
            aria-busy={toggle.isPending || undefined}
            onClick={onToggle}
          >
            {toggle.isPending ? <Spinner /> : null}[ cancel ]
          </Button>
        </>
      ) : podclub.seats_left <= 0 ? (
        <SeatWaitlistControls
          podclub={podclub}
          username={username}
          isPending={waitlist.isPending}
          onToggle={(isWaitlisted) =>
            waitlist.mutate(
              { podclubId: podclub.id, idempotencyKey: newIdempotencyKey() },
              {
                onError: (error) =>
                  toast({
                    title: isWaitlisted
                      ? 'Failed to leave the seat waitlist'
                      : 'Failed to join the seat waitlist',
                    description: isApiError(error) ? error.message : undefined,
                    variant: 'destructive',
                  }),
              },
            )
          }
        />
      ) : (
        <Button
          disabled={toggle.isPending}
          aria-busy={toggle.isPending || undefined}
          onClick={onToggle}
        >
          {toggle.isPending ? <Spinner /> : null}[ register ]
        </Button>
      )}
    </div>
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
  podclub: SeatPodclub
  username: string
  isPending: boolean
  onToggle: (isWaitlisted: boolean) => void
}) {
  const place = podclub.seat_waitlist.waiting.indexOf(username) + 1
  const isWaitlisted = place > 0
  const others = podclub.waitlist_count - (isWaitlisted ? 1 : 0)
  const noteId = `podclub-${podclub.id}-seat-waitlist`
  return (
    <>
      {/* A waiting member's own place is read out when it moves (someone ahead left); the count
          of others waiting, which the live stream changes at any time, is not. */}
      <p id={noteId} aria-live={isWaitlisted ? 'polite' : 'off'} className="w-full text-sm">
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
        onClick={() => onToggle(isWaitlisted)}
      >
        {isPending ? <Spinner /> : null}
        {isWaitlisted ? '[ leave waitlist ]' : '[ join waitlist ]'}
      </Button>
    </>
  )
}

function ShareButton({ href }: { href: string }) {
  return (
    <Button asChild variant="outline">
      <a href={href} target="_blank" rel="noopener noreferrer">
        [ share to x ]
      </a>
    </Button>
  )
}

/** The longest a timer may wait (about 24.8 days); a start further off is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1

/**
 * Whether `startsAt` has passed: true from the moment it does, by one timer set for that moment
 * (nothing runs while waiting).
 */
export function useHasStarted(startsAt: string) {
  const at = new Date(startsAt).getTime()
  const [now, setNow] = useState(Date.now)
  const started = at <= now
  useEffect(() => {
    if (started) return
    let timer: ReturnType<typeof setTimeout>
    const wait = () => {
      const left = at - Date.now()
      if (left <= 0) setNow(Date.now())
      else timer = setTimeout(wait, Math.min(left, MAX_TIMER_MS))
    }
    timer = setTimeout(wait, Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS))
    return () => clearTimeout(timer)
  }, [at, started])
  return started
}
