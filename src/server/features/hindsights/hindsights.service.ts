import { count, eq } from 'drizzle-orm'
import { HINDSIGHTS_PER_PODCLUB, type Hindsight } from '#contract/podclub-detail'
import { hindsights, podclubs } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError, notFound } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import { isParticipant } from '../podclubs/podclubs.rules'

/**
 * Posts a hindsight on a completed podclub the member attended. The podclub's row is locked for
 * the count and the insert, so concurrent posts, from any number of processes, never pass 20.
 */
export async function postHindsight(
  deps: Pick<AppDeps, 'db' | 'wakeOutbox'>,
  member: AuthUser,
  podclubId: number,
  message: string,
): Promise<Hindsight> {
  return transaction(deps, async (tx) => {
    const [club] = await tx
      .select({ id: podclubs.id, status: podclubs.status })
      .from(podclubs)
      .where(eq(podclubs.id, podclubId))
      .for('update')
    if (!club) throw notFound('podclub')
    if (!(await isParticipant(tx, club.id, member.id))) {
      throw new AppError('FORBIDDEN', 'You are not a participant of this podclub')
    }
    if (club.status !== 'completed') {
      throw new AppError('CONFLICT', 'Hindsights can be posted once the podclub is completed')
    }
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(hindsights)
      .where(eq(hindsights.podclubId, podclubId))
    if (n >= HINDSIGHTS_PER_PODCLUB) {
      throw new AppError(
        'HINDSIGHT_LIMIT',
        `This podclub already has ${HINDSIGHTS_PER_PODCLUB} hindsights`,
      )
    }
    await tx.insert(hindsights).values({ podclubId, userId: member.id, message })
    return { username: member.username, message }
  })
}
