import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import { useLoaderData } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { AboutCard } from '#client/features/home/components/about-card'
import { ArchiveCard } from '#client/features/home/components/archive-card'
import { JoinCard } from '#client/features/home/components/join-card'
import { Splash } from '#client/features/home/components/splash'
import { hasSeenSplash } from '#client/features/home/lib/splash-seen'
import { StatsCard } from '#client/features/home/components/stats-card'
import { TestimonialCard } from '#client/features/home/components/testimonial-card'
import { ThinkerCard } from '#client/features/home/components/thinker-card'
import { PodclubFeed } from '#client/features/podclubs/components/podclub-feed'
import type { BlockType } from '#client/features/podclubs/lib/build-feed'
import { useUser } from '#client/lib/auth'
import { AfterHydration, useIsHydrated } from '#client/lib/hydration'
import { nextTask } from '#client/lib/next-task'
import type { HomeLoaderData } from '../router'

// The members' two cards hold forms, and with them the form library: they load apart, so a
// visitor's first load of / carries none of it (the size budget, scripts/size-budget.mjs).
const loadInviteCard = () => import('#client/features/home/components/invite-card')
const loadSuggestCard = () => import('#client/features/home/components/suggest-card')
const InviteCard = lazy(() => loadInviteCard().then((m) => ({ default: m.InviteCard })))
const SuggestCard = lazy(() => loadSuggestCard().then((m) => ({ default: m.SuggestCard })))

/**
 * Holds a form card's place while its code arrives, about as tall as the card, with its title;
 * without scripts it says the form needs them (styles.css, `scripting: none`).
 */
function FormCardPlaceholder({ title }: { title: string }) {
  return (
    <div className="grid h-full min-h-80 content-start gap-3 rounded-sm border border-line bg-paper-raised p-6">
      <h2 className="font-mono text-lg font-semibold">{title}</h2>
      <p className="text-sm text-ink-muted" data-needs-scripts>
        This form needs JavaScript.
      </p>
    </div>
  )
}

function renderBlock(block: BlockType, index: number, seed: number) {
  switch (block) {
    case 'invite':
      return (
        <AfterHydration fallback={<FormCardPlaceholder title="invite a friend" />}>
          <Suspense fallback={<FormCardPlaceholder title="invite a friend" />}>
            <InviteCard />
          </Suspense>
        </AfterHydration>
      )
    case 'join':
      return <JoinCard instance={index} seed={seed} />
    case 'propose':
      return (
        <AfterHydration fallback={<FormCardPlaceholder title="suggest a podcast" />}>
          <Suspense fallback={<FormCardPlaceholder title="suggest a podcast" />}>
            <SuggestCard />
          </Suspense>
        </AfterHydration>
      )
    case 'about':
      return <AboutCard />
    case 'stats':
      return <StatsCard />
    case 'testimonial':
      return <TestimonialCard />
    case 'archive':
      return <ArchiveCard />
    case 'thinker':
      return <ThinkerCard />
  }
}

type SplashState = 'showing' | 'dismissing' | 'gone'

/** '/' (with the splash) and '/home' (without): the feed of upcoming podclubs and the club's cards. */
export default function HomeRoute() {
  const { skipSplash, seed } = useLoaderData<HomeLoaderData>()
  const user = useUser()
  const [splashState, setSplash] = useState<SplashState>(skipSplash ? 'gone' : 'showing')
  const isMember = user !== null
  // The server renders '/' with the splash, not knowing whether this tab has seen it: read
  // before the splash marks itself seen, it goes as soon as the page has hydrated.
  const [hadSeenSplash] = useState(() => typeof window !== 'undefined' && hasSeenSplash())
  const isHydrated = useIsHydrated()
  const splash = isHydrated && hadSeenSplash ? 'gone' : splashState
  const username = user?.username ?? null
  // The same element while the member and the seed stay: rendering again after hydration (the
  // splash's state) or a splash's step leaves the feed's many cards alone.
  const feed = useMemo(
    () => (
      <ContentLayout title="home">
        <PodclubFeed
          username={username}
          renderBlock={(block, index) => renderBlock(block, index, seed)}
        />
      </ContentLayout>
    ),
    [username, seed],
  )

  // A member's feed shows both form cards: their code loads while the feed does, asked for in a
  // task of its own rather than in the one that mounts the page.
  useEffect(() => {
    if (!isMember) return
    void nextTask().then(() => {
      void loadInviteCard()
      void loadSuggestCard()
    })
  }, [isMember])

  return (
    <>
      {splash !== 'gone' ? (
        <Splash onDismiss={() => setSplash('dismissing')} onGone={() => setSplash('gone')} />
      ) : null}
      <div
        data-behind-splash
        className={`transition-opacity duration-700 motion-reduce:transition-none ${
          splash === 'showing' ? 'opacity-0' : 'opacity-100'
        }`}
      >
        {feed}
      </div>
    </>
  )
}
