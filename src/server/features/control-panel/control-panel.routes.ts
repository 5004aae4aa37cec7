import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  blastResponseSchema,
  controlPanelResponseSchema,
  createBlastBodySchema,
  createInviteCodesBodySchema,
  createOperatorPodclubBodySchema,
  registerAdminParamsSchema,
  createTriggerBodySchema,
  inviteCodesResponseSchema,
  podclubIdParamSchema,
  triggerResponseSchema,
  updateChatlogBodySchema,
  updatePodclubBodySchema,
} from '#contract/control-panel'
import { getJobParamsSchema, jobResponseSchema } from '#contract/jobs'
import { registrationStateResponseSchema } from '#contract/podclubs'
import { createProposalResponseSchema } from '#contract/proposals'
import type { AppDeps } from '../../deps'
import { queueMonthlyBlast } from '../blasts/blasts.jobs'
import { sendTestBlast } from '../blasts/blasts.service'
import { readJob } from '../../jobs/job'
import {
  createInviteCodes,
  createOperatorPodclub,
  quickRegister,
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
    async (request) => ({ data: await sendTestBlast(deps, request.body) }),
  )

  app.post(
    '/monthlyblast/',
    {
      config,
      schema: {
        tags,
        summary: 'Queue the monthly blast: answers at once with the job that sends it',
        body: createBlastBodySchema,
        response: { 202: jobResponseSchema },
      },
    },
    async (request, reply) => {
      const job = await queueMonthlyBlast(deps, request.body, request.member.id)
      return reply.status(202).send({ data: job })
    },
  )

  app.get(
    '/controlpanel/jobs/:id/',
    {
      config,
      schema: {
        tags,
        summary: 'Where a job an operator started stands (the monthly blast)',
        params: getJobParamsSchema,
        response: { 200: jobResponseSchema },
      },
    },
    async (request) => ({ data: await readJob(deps.db, request.params.id) }),
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

  app.post(
    '/register_admin/:podclubId/:username/',
    {
      config,
      schema: {
        tags,
        summary: 'Quick registration: give a member a seat',
        params: registerAdminParamsSchema,
        response: { 200: registrationStateResponseSchema },
      },
    },
    async (request) => ({
      data: await quickRegister(deps, request.params.podclubId, request.params.username),
    }),
  )

  app.post(
    '/controlpanel/podclubs/',
    {
      config,
      schema: {
        tags,
        summary: 'Create an upcoming podclub with any future date and podmeister',
        body: createOperatorPodclubBodySchema(() => deps.clock.now()),
        response: { 201: createProposalResponseSchema },
      },
    },
    async (request, reply) => {
      const podclub = await createOperatorPodclub(deps, request.body)
      return reply.status(201).send({ data: podclub })
    },
  )
}
