import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPublicConfigEndpoint } from '#contract/config'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { links } from '../../lib/links'
import type { PageRead } from '../../plugins/page-cache'

/** A page kept for every viewer may read the config: settings change only with a restart. */
export const configPageRead: PageRead = { endpoint: getPublicConfigEndpoint }

/** The public facts of this installation the page shows. Settings change only with a restart. */
export const configRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const data = {
    app_url: deps.env.APP_URL,
    club_invite_code: deps.clubInviteCode,
    invite_link: links(deps.env).register(deps.clubInviteCode),
    contact_email: deps.env.CONTACT_EMAIL,
  }
  route(app, getPublicConfigEndpoint, async () => ({ data }))
}
