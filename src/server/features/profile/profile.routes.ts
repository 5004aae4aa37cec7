import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { getProfileEndpoint } from '#contract/profile'
import type { AppDeps } from '../../deps'
import { route } from '../../lib/route'
import { getProfile } from './profile.service'

export const profileRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  route(app, getProfileEndpoint, async (request) => ({
    data: await getProfile(deps, request.member.id),
  }))
}
