import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { liveEventsEndpoint } from '#contract/live'
import type { AppDeps } from '../../deps'
import type { FeedCache } from '../podclubs/podclubs.feed-cache'
import { route } from '../../lib/route'
import { liveStreamsCap } from './live-capacity'
import { createLiveHub } from './live.hub'
import { startLiveWriter } from './live-writer'

/** `GET /events/`: the live stream of this process (live.hub.ts). */
export const liveRoutes: FastifyPluginAsyncZod<{ deps: AppDeps; feed: FeedCache }> = async (
  app,
  { deps, feed },
) => {
  const hub = createLiveHub({
    db: deps.db,
    feed,
    listen: deps.listen,
    now: () => deps.clock.now(),
    maxStreams: liveStreamsCap(deps.env.LIVE_STREAMS_MAX),
    onRefused: (reason) => app.metrics.liveStreamRefused(reason),
    log: app.log,
    startWriter: startLiveWriter,
  })
  app.metrics.countLiveStreams(() => hub.size())
  // Before the server stops accepting: open streams would otherwise hold the close forever.
  app.addHook('preClose', async () => {
    await hub.close()
  })

  route(app, liveEventsEndpoint, async (request, reply) => {
    await hub.open(request, reply)
  })
}
