import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  blastResponseSchema,
  controlPanelResponseSchema,
  createBlastBodySchema,
  createInviteCodesBodySchema,
  createTriggerBodySchema,
  inviteCodesResponseSchema,
  podclubIdParamSchema,
  triggerResponseSchema,
  updateChatlogBodySchema,
  updatePodclubBodySchema,
} from '#contract/control-panel'
import type { AppDeps } from '../../deps'
import { sendBlast } from '../blasts/blasts.service'
import {
  createInviteCodes,
  markComplete,
  readControlPanel,
  sendTenMinuteNotice,
  updateChatlog,
  updatePodclub,
} from './control-panel.service'

/** The operators' calls (spec 2 §7 and CONTRACT.md): super users only, checked here. */
export const controlPanelRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  const tags = ['control panel']
  const config = { access: 'superuser' as const }

  app.get(
    '/controlpanel/',
    { config, schema: { tags, response: { 200: controlPanelResponseSchema } } },
    async () => ({ data: await readControlPanel(deps) }),
  )

  app.post(
    '/controlpanel/trigger/',
    {
      config,
      schema: { tags, body: createTriggerBodySchema, response: { 200: triggerResponseSchema } },
    },
    async (request) => {
      const { podclub_pk, notice_type } = request.body
      return {
        data:
          notice_type === 'min'
            ? await sendTenMinuteNotice(deps, podclub_pk)
            : await markComplete(deps, podclub_pk),
      }
    },
  )

  app.post(
    '/testmonthlyblast/',
    {
      config,
      schema: { tags, body: createBlastBodySchema, response: { 200: blastResponseSchema } },
    },
    async (request) => ({ data: await sendBlast(deps, request.body, 'superusers') }),
  )

  app.post(
    '/monthlyblast/',
    {
      config,
      schema: { tags, body: createBlastBodySchema, response: { 200: blastResponseSchema } },
    },
    async (request) => ({ data: await sendBlast(deps, request.body, 'members') }),
  )

  app.patch(
    '/controlpanel/podclubs/:id/',
    {
      config,
      schema: {
        tags,
        params: podclubIdParamSchema,
        body: updatePodclubBodySchema,
        response: { 200: triggerResponseSchema },
      },
    },
    async (request) => ({ data: await updatePodclub(deps, request.params.id, request.body) }),
  )

  app.put(
    '/controlpanel/podclubs/:id/chatlog/',
    {
      config,
      schema: {
        tags,
        params: podclubIdParamSchema,
        body: updateChatlogBodySchema,
        response: { 200: triggerResponseSchema },
      },
    },
    async (request) => ({
      data: await updateChatlog(deps, request.params.id, request.body.chatlog),
    }),
  )

  app.post(
    '/controlpanel/invite_codes/',
    {
      config,
      schema: {
        tags,
        body: createInviteCodesBodySchema,
        response: { 201: inviteCodesResponseSchema },
      },
    },
    async (request, reply) => {
      const codes = await createInviteCodes(deps, request.member.id, request.body.count)
      return reply.status(201).send({ data: { codes } })
    },
  )
}
