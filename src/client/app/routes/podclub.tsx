import { HINDSIGHTS_PER_PODCLUB } from '#contract/podclub-detail-limits'
import { lazy, Suspense, useEffect, useRef } from 'react'
import { useNavigate, useParams } from 'react-router'
import { NotFoundPage } from '#client/components/errors/not-found-page'
import { Spinner } from '#client/components/ui/spinner'
import { usePodclubDetail } from '#client/features/podclub-detail/api/get-podclub-detail'
import { ChatlogCard } from '#client/features/podclub-detail/components/chatlog-card'
import {
  AttendeesCard,
  PodclubDetailsCard,
  PodclubHeader,
} from '#client/features/podclub-detail/components/podclub-details'
import { SeatAction } from '#client/features/podclubs/components/seat-action'
import { PODCLUB_GATE, PODCLUB_GATE_LOGIN } from '#client/features/podclub-detail/lib/gate'
import { isNotFoundError } from '#client/lib/api-client'
import { useUser } from '#client/lib/auth'
import { AfterHydration } from '#client/lib/hydration'
import { loginPath } from '#client/lib/login-path'
import { pageTitle } from '#client/lib/page-title'
import { toast } from '#client/lib/toast'

// A completed podclub's hindsights hold a form, and with it the form library and the contract's
// schemas: they load apart, so an upcoming podclub's page carries none of it.
const HindsightsCard = lazy(() =>
  import('#client/features/hindsights/components/hindsights-card').then((m) => ({
    default: m.HindsightsCard,
  })),
)

/**
 * Holds the hindsights' place while their code arrives, about as tall as the card, with its
 * title; without scripts it says they need them (styles.css, `scripting: none`).
 */
function HindsightsPlaceholder({ count }: { count: number }) {
  return (
    <div className="grid min-h-80 content-start gap-3 rounded-sm border border-line bg-paper-raised p-6">
      <h2 className="font-mono text-lg font-semibold">
        hindsights ({count} / {HINDSIGHTS_PER_PODCLUB})
      </h2>
      <p className="text-sm text-ink-muted" data-needs-scripts>
        Reading and writing hindsights needs JavaScript.
      </p>
    </div>
  )
}

export default function PodclubRoute() {
  const { id = '' } = useParams()
  const navigate = useNavigate()
  const podclub = usePodclubDetail(id)
  const user = useUser()
  const data = podclub.data
  // The server leaves hindsights out of a completed podclub for anyone who did not attend it.
  const isGated = data?.status === 'completed' && data.hindsights === undefined
  const gateHandled = useRef(false)

  useEffect(() => {
    if (!isGated || gateHandled.current) return
    gateHandled.current = true
    // A visitor may be an attendee who is not logged in (a link from an e-mail): they log in
    // and come back here.
    if (!user) {
      toast(PODCLUB_GATE_LOGIN)
      void navigate(loginPath(`/podclubs/${id}`), { replace: true })
      return
    }
    toast({ ...PODCLUB_GATE, variant: 'destructive' })
    void navigate('/home')
  }, [isGated, navigate, user, id])

  // A podclub that does not exist (a mistyped or an old link): the not-found page, with the way home.
  if (!data && isNotFoundError(podclub.error)) return <NotFoundPage />
  if (!data && podclub.isError) {
    return <LoadFailure message={podclub.error.message} />
  }

  if (!data || isGated) {
    // A screen tall: the footer waits below the fold instead of jumping when the content comes.
    return (
      <div className="grid min-h-dvh content-start justify-items-center py-16" aria-busy="true">
        <title>{pageTitle('podclub')}</title>
        <h1 className="sr-only">podclub</h1>
        <Spinner className="size-8 text-accent" />
        <span className="sr-only">loading podclub…</span>
      </div>
    )
  }

  const isCompleted = data.status === 'completed'
  return (
    <div className="grid gap-6">
      <title>{pageTitle(data.episode_title)}</title>
      <PodclubHeader podclub={data} />
      <div className="grid gap-6 lg:grid-cols-[2fr_1fr]">
        <div className="grid content-start gap-6">
          {isCompleted && data.hindsights ? (
            <AfterHydration fallback={<HindsightsPlaceholder count={data.hindsights.length} />}>
              <Suspense fallback={<HindsightsPlaceholder count={data.hindsights.length} />}>
                <HindsightsCard
                  podclubId={data.id}
                  hindsights={data.hindsights}
                  onPosted={() => podclub.refetch()}
                />
              </Suspense>
            </AfterHydration>
          ) : null}
          {isCompleted && data.chatlog !== undefined ? (
            <ChatlogCard chatlog={data.chatlog} />
          ) : null}
          <PodclubDetailsCard
            podclub={data}
            seatAction={<SeatAction podclub={data} username={user?.username ?? null} />}
          />
        </div>
        <div className="grid content-start gap-6">
          <AttendeesCard podclub={data} />
        </div>
      </div>
    </div>
  )
}

/** Spec 2 §8: 'Failed to fetch podclub', in red on the page, with the reason when known. */
function LoadFailure({ message }: { message: string }) {
  return (
    <div className="grid gap-3">
      <title>{pageTitle('podclub')}</title>
      <h1 className="font-mono text-2xl font-semibold">podclub</h1>
      <div role="alert" className="text-danger">
        <p>Failed to fetch podclub</p>
        {message ? <p className="text-sm">{message}</p> : null}
      </div>
    </div>
  )
}
