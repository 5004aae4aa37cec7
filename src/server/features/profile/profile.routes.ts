import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getProfileResponseSchema } from '#contract/profile'
import type { AppDeps } from '../../deps'
import { getProfile } from './profile.service'

export const profileRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get(
    '/profile/',
    {
      config: { access: 'member' },
      schema: { tags: ['profile'], response: { 200: getProfileResponseSchema } },
    },
    async (request) => ({ data: await getProfile(deps, request.member.id) }),
  )
}
