import { asc, desc, eq, sql } from 'drizzle-orm'
import { CLUB_TIME_MESSAGES, parseClubDateTime } from '#contract/club-time'
import type { Podclub } from '#contract/podclubs'
import type { createProposalBodySchema, ProposalSuggestions } from '#contract/proposals'
import type { z } from 'zod'
import type { Db, Tx } from '../../db/client'
import { podcasts, podclubs } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError } from '../../lib/app-error'
import type { AuthUser } from '../../plugins/session'
import { readPodclubs } from '../podclubs/podclubs.queries'

export type ProposalInput = z.output<ReturnType<typeof createProposalBodySchema>>

const SUGGESTION_LIMIT = 200

/** The wizard's suggestions: every podcast by name, and the keywords podclubs use most. */
export async function getProposalSuggestions(db: Db): Promise<ProposalSuggestions> {
  const shows = await db
    .select({ name: podcasts.name })
    .from(podcasts)
    .orderBy(asc(sql`lower(${podcasts.name})`))
    .limit(SUGGESTION_LIMIT)
  const keyword = sql<string>`lower(btrim(k.keyword))`
  const used = await db
    .select({ keyword, uses: sql<number>`count(*)::int` })
    .from(
      sql`${podclubs}, lateral (values (${podclubs.keywordOne}), (${podclubs.keywordTwo}), (${podclubs.keywordThree})) as k(keyword)`,
    )
    .where(sql`btrim(k.keyword) <> ''`)
    .groupBy(keyword)
    .orderBy(desc(sql`count(*)`), asc(keyword))
    .limit(SUGGESTION_LIMIT)
  return { podcasts: shows.map((s) => s.name), keywords: used.map((k) => k.keyword) }
}

/**
 * The podcast of that name (case aside), created when there is none; two transactions naming
 * the same new podcast at once end up sharing it.
 */
export async function findOrCreatePodcast(tx: Tx, name: string): Promise<number> {
  await tx.insert(podcasts).values({ name }).onConflictDoNothing()
  const [podcast] = await tx
    .select({ id: podcasts.id })
    .from(podcasts)
    .where(eq(sql`lower(${podcasts.name})`, name.toLowerCase()))
  if (!podcast) throw new Error('podcast missing after insert')
  return podcast.id
}

/** Writes an upcoming podclub from a proposal's fields and answers it as the lists show it. */
export async function insertUpcomingPodclub(
  tx: Tx,
  input: Omit<ProposalInput, 'scheduledStart'>,
  place: { podmeisterId: number; startsAt: Date; zoomLink: string },
): Promise<Podclub> {
  const podcastId = await findOrCreatePodcast(tx, input.podcastName)
  const [created] = await tx
    .insert(podclubs)
    .values({
      podcastId,
      podmeisterId: place.podmeisterId,
      episodeTitle: input.title,
      episodeNumber: input.number,
      status: 'upcoming',
      startsAt: place.startsAt,
      location: input.location,
      zoomLink: place.zoomLink,
      keywordOne: input.keywordOne,
      keywordTwo: input.keywordTwo,
      keywordThree: input.keywordThree,
      linkOne: input.linkOne,
      linkTwo: input.linkTwo,
      linkThree: input.linkThree,
      description: input.description,
      podmeisterNote: input.podmeisterNote,
    })
    .returning({ id: podclubs.id })
  const [podclub] = await readPodclubs(tx, eq(podclubs.id, created!.id))
  return podclub!
}

/** Creates the upcoming podclub a member proposes, with them as podmeister. */
export async function createProposal(
  deps: Pick<AppDeps, 'db' | 'wakeOutbox' | 'env'>,
  member: AuthUser,
  input: ProposalInput,
): Promise<Podclub> {
  // The body schema has checked it already; this only narrows the type.
  const startsAt = parseClubDateTime(input.scheduledStart)
  if (!startsAt) throw new AppError('BAD_REQUEST', CLUB_TIME_MESSAGES.required)
  return transaction(deps, (tx) =>
    insertUpcomingPodclub(tx, input, {
      podmeisterId: member.id,
      startsAt,
      zoomLink: input.location === 'zoom' ? deps.env.ZOOM_LINK : '',
    }),
  )
}
