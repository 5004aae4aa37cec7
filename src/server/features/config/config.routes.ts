import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getPublicConfigResponseSchema } from '#contract/config'
import type { AppDeps } from '../../deps'

/** The public facts of this installation the page needs: the club code and its address. */
export const configRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/config/',
    {
      config: { access: 'public' },
      schema: {
        tags: ['config'],
        summary: "The club's reusable invite code (share text, QR page) and public URL",
        response: { 200: getPublicConfigResponseSchema },
      },
    },
    async () => ({
      data: { club_invite_code: deps.clubInviteCode, app_url: deps.env.APP_URL.replace(/\/$/, '') },
    }),
  )
}
