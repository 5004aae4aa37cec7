import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPodclubCalendarEndpoint } from '#contract/podclub-detail'
import { calendarFeedEndpoint, resetCalendarLinkEndpoint } from '#contract/profile'
import type { AppDeps } from '../../deps'
import { AppError } from '../../lib/app-error'
import { route } from '../../lib/route'
import { defineRateLimit, limitKeys } from '../../plugins/rate-limit'
import { calendarFeed, podclubCalendarFile, resetCalendarFeed } from './calendar.service'

const CALENDAR_TYPE = 'text/calendar; charset=utf-8'

export const calendarLimits = {
  /** New feed links for one member: enough for a few mistakes, not for a script. */
  reset: defineRateLimit('calendar-link-reset', 10, 3600),
  /**
   * Feed fetches from one address. Generous: a calendar service (Google's, Apple's) fetches the
   * feeds of many members from few addresses, each a few times a day.
   */
  feed: defineRateLimit('calendar-feed', 600, 900),
}

/** The API's calendar calls: a podclub's `.ics` and a new feed link. */
export const calendarRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getPodclubCalendarEndpoint, async (request, reply) => {
    const file = await podclubCalendarFile(deps, request.params.podclubId)
    return reply
      .type(CALENDAR_TYPE)
      .header(
        'content-disposition',
        `attachment; filename="podclub-${request.params.podclubId}.ics"`,
      )
      .send(file)
  })

  route(app, resetCalendarLinkEndpoint, async (request) => {
    await app.rateLimit.consume(calendarLimits.reset, limitKeys.account(request.member.id))
    return { data: { calendar_url: await resetCalendarFeed(deps, request.member.id) } }
  })
}

/** The personal feed `/calendar/<token>.ics`, outside the API's scope (see its declaration). */
export const calendarFeedRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  route(app, calendarFeedEndpoint, async (request, reply) => {
    await app.rateLimit.consume(calendarLimits.feed, limitKeys.address(request))
    const match = /^(.+)\.ics$/.exec(request.params.file)
    const feed = match ? await calendarFeed(deps, match[1]!) : null
    if (feed === null) {
      throw new AppError('NOT_FOUND', 'Resource not found', { 'cache-control': 'no-store' })
    }
    const { ics, etag } = feed
    // Calendar apps poll a feed every few hours at most; 15 minutes of reuse spares the database
    // without keeping a new seat out of the calendar for long. Private: the URL is a secret.
    reply
      .header('cache-control', 'private, max-age=900')
      .header('etag', etag)
      .header('x-robots-tag', 'noindex')
    if (request.headers['if-none-match'] === etag) return reply.status(304).send()
    return reply
      .type(CALENDAR_TYPE)
      .header('content-disposition', 'inline; filename="podclub.ics"')
      .send(ics)
  })
}
