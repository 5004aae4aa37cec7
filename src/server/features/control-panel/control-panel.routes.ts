import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  createInviteCodesEndpoint,
  createOperatorPodclubEndpoint,
  getControlPanelEndpoint,
  quickRegisterEndpoint,
  sendMonthlyBlastEndpoint,
  sendTestBlastEndpoint,
  triggerNoticeEndpoint,
  updateChatlogEndpoint,
  updatePodclubEndpoint,
} from '#contract/control-panel'
import { getJobEndpoint } from '#contract/jobs'
import type { AppDeps } from '../../deps'
import { readJob } from '../../jobs/job'
import { route } from '../../lib/route'
import { queueMonthlyBlast } from '../blasts/blasts.jobs'
import { sendTestBlast } from '../blasts/blasts.service'
import {
  createInviteCodes,
  createOperatorPodclub,
  quickRegister,
  markComplete,
  readControlPanel,
  sendNotice,
  updateChatlog,
  updatePodclub,
} from './control-panel.service'

/** The operators' calls (spec 2 §7 and CONTRACT.md): super users only, as declared. */
export const controlPanelRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (
  app,
  { deps },
) => {
  route(app, getControlPanelEndpoint, async () => ({ data: await readControlPanel(deps) }))

  route(app, triggerNoticeEndpoint, async (request) => {
    const { podclub_pk, notice_type, confirm } = request.body
    return {
      data:
        notice_type === 'min'
          ? await sendNotice(deps, podclub_pk, confirm)
          : await markComplete(deps, podclub_pk),
    }
  })

  route(app, sendTestBlastEndpoint, async (request) => ({
    data: await sendTestBlast(deps, request.body),
  }))

  route(app, sendMonthlyBlastEndpoint, async (request, reply) => {
    const job = await queueMonthlyBlast(deps, request.body, request.member.id)
    return reply.status(202).send({ data: job })
  })

  route(app, getJobEndpoint, async (request) => ({
    data: await readJob(deps.db, request.params.id),
  }))

  route(app, updatePodclubEndpoint, async (request) => ({
    data: await updatePodclub(deps, request.params.id, request.body),
  }))

  route(app, updateChatlogEndpoint, async (request) => ({
    data: await updateChatlog(deps, request.params.id, request.body.chatlog),
  }))

  route(app, createInviteCodesEndpoint, async (request, reply) => {
    const codes = await createInviteCodes(deps, request.member.id, request.body.count)
    return reply.status(201).send({ data: { codes } })
  })

  route(app, quickRegisterEndpoint, async (request) => ({
    data: await quickRegister(deps, request.params.podclubId, request.params.username),
  }))

  route(
    app,
    createOperatorPodclubEndpoint,
    async (request, reply) => {
      const podclub = await createOperatorPodclub(deps, request.body)
      return reply.status(201).send({ data: podclub })
    },
    { now: () => deps.clock.now() },
  )
}
