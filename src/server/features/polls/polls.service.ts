import { and, asc, count, eq, isNull, sql } from 'drizzle-orm'
import { CLUB_TIME_MESSAGES, isInFuture, prettyDate, prettyTime } from '#contract/club-time'
import type { z } from 'zod'
import {
  POLL_EXPIRED_MESSAGE,
  POLL_OPTION_MISMATCH_MESSAGE,
  voteCodeErrors,
  type createPollBodySchema,
  type CreatePollVoteBody,
  type Poll,
  type PollResult,
} from '#contract/polls'
import type { Db, Tx } from '../../db/client'
import { pollOptions, polls, pollVotes, voteCodes } from '../../db/schema/index'
import { transaction } from '../../db/transaction'
import type { AppDeps } from '../../deps'
import { AppError, FieldErrors, notFound } from '../../lib/app-error'
import { links } from '../../lib/links'
import { randomToken, sha256 } from '../../lib/tokens'
import type { AuthUser } from '../../plugins/session'
import { enqueueMail } from '../mail/mail.service'
import { rankResults } from './poll-results'
import { alreadyVotedMail, voteCodeMail } from './polls.mail'

type PollRow = typeof polls.$inferSelect
type Reader = Db | Tx

const pollNotFound = () => notFound('Poll')
const pollExpired = () => new AppError('CONFLICT', POLL_EXPIRED_MESSAGE)
const invalidCode = () => new AppError('BAD_REQUEST', voteCodeErrors.invalid)
const usedCode = () => new AppError('VOTE_CODE_USED', voteCodeErrors.used)

const isExpired = (poll: PollRow, now: Date) => poll.expiresAt.getTime() <= now.getTime()

async function findPoll(db: Reader, pollId: number): Promise<PollRow> {
  const [poll] = await db.select().from(polls).where(eq(polls.id, pollId))
  if (!poll) throw pollNotFound()
  return poll
}

type CodeRow = { usedAt: Date | null }
type CodeVerdict = keyof typeof voteCodeErrors

/**
 * What stands in the way of a code voting, judged in one order for the poll window and the vote
 * alike, so the page never promises a vote the cast refuses (or the other way round): a code we
 * never made, then a code already used, then a poll that has closed. Null: the code may vote.
 */
function judgeVoteCode(code: CodeRow | undefined, poll: PollRow, now: Date): CodeVerdict | null {
  if (!code) return 'invalid'
  if (code.usedAt) return 'used'
  if (isExpired(poll, now)) return 'expired'
  return null
}

/** The refusal a vote gets for a verdict: the same words the poll window shows for the code. */
const refusalFor: Record<CodeVerdict, () => AppError> = {
  invalid: invalidCode,
  used: usedCode,
  expired: pollExpired,
}

const findCode = (db: Reader, poll: PollRow, code: string) =>
  db
    .select()
    .from(voteCodes)
    .where(and(eq(voteCodes.pollId, poll.id), eq(voteCodes.codeHash, sha256(code.trim()))))

type CodeState = { valid: boolean; error: string | null }

async function readCodeState(
  db: Reader,
  poll: PollRow,
  code: string,
  now: Date,
): Promise<CodeState> {
  const [row] = await findCode(db, poll, code)
  const verdict = judgeVoteCode(row, poll, now)
  return verdict ? { valid: false, error: voteCodeErrors[verdict] } : { valid: true, error: null }
}

/** The poll's options with their votes and shares, most votes first (the poll window's list). */
export async function readPollResults(db: Reader, pollId: number): Promise<PollResult[]> {
  const tallies = await db
    .select({
      id: pollOptions.id,
      title: pollOptions.title,
      podcast: pollOptions.podcast,
      description: pollOptions.description,
      link: pollOptions.link,
      position: pollOptions.position,
      votes: count(pollVotes.id),
    })
    .from(pollOptions)
    .leftJoin(pollVotes, eq(pollVotes.optionId, pollOptions.id))
    .where(eq(pollOptions.pollId, pollId))
    .groupBy(pollOptions.id)
    .orderBy(asc(pollOptions.position), asc(pollOptions.id))
  return rankResults(tallies)
}

async function readPoll(
  db: Reader,
  poll: PollRow,
  now: Date,
  voteCode: string | undefined,
): Promise<Poll> {
  const results = await readPollResults(db, poll.id)
  const expired = isExpired(poll, now)
  const code = voteCode === undefined ? undefined : await readCodeState(db, poll, voteCode, now)
  return {
    id: poll.id,
    title: poll.title,
    description: poll.description,
    pretty_date: prettyDate(poll.expiresAt),
    pretty_time: prettyTime(poll.expiresAt),
    is_active: !expired,
    is_expired: expired,
    expires_at: poll.expiresAt.toISOString(),
    total_votes: results.reduce((sum, r) => sum + r.votes, 0),
    results,
    vote_code_valid: code ? code.valid : null,
    vote_code_error: code ? code.error : null,
  }
}

/** The poll with its standing; with a code, whether that code can still vote. */
export async function getPoll(deps: AppDeps, pollId: number, voteCode?: string): Promise<Poll> {
  const poll = await findPoll(deps.db, pollId)
  return readPoll(deps.db, poll, deps.clock.now(), voteCode)
}

/**
 * Mails a vote code for (poll, address). One row per poll and address, case-insensitively: asked
 * again before voting, the row gets a fresh code (the old link stops working, the new one
 * votes); asked after voting, no code is made and the mail says the vote was cast. The answer
 * to the caller is the same in every case, member or not.
 */
export async function requestVoteCode(deps: AppDeps, pollId: number, email: string) {
  const address = email.trim()
  await transaction(deps, async (tx) => {
    const poll = await findPoll(tx, pollId)
    if (isExpired(poll, deps.clock.now())) throw pollExpired()
    const closes = `${prettyDate(poll.expiresAt)} at ${prettyTime(poll.expiresAt)}`

    const code = randomToken()
    const codeHash = sha256(code)
    const sameAddress = and(
      eq(voteCodes.pollId, poll.id),
      sql`lower(${voteCodes.email}) = lower(${address})`,
    )
    // The row lock orders this against a vote cast with the old code at the same moment: that
    // vote either lands first (and this sees the code used) or finds its code replaced.
    let [existing] = await tx.select().from(voteCodes).where(sameAddress).for('update')
    const mailTheCode = () =>
      enqueueMail(
        tx,
        voteCodeMail({
          to: address,
          pollTitle: poll.title,
          link: links(deps.env).poll(poll.id, code),
          closes,
        }),
      )
    if (!existing) {
      const [inserted] = await tx
        .insert(voteCodes)
        .values({ pollId: poll.id, email: address, codeHash })
        .onConflictDoNothing()
        .returning({ id: voteCodes.id })
      if (inserted) {
        await mailTheCode()
        return
      }
      // Someone asked for the same address at the same moment and got there first.
      ;[existing] = await tx.select().from(voteCodes).where(sameAddress).for('update')
      if (!existing) throw new Error('vote code row vanished')
    }
    if (existing.usedAt) {
      await enqueueMail(
        tx,
        alreadyVotedMail({
          to: address,
          pollTitle: poll.title,
          link: links(deps.env).poll(poll.id),
          closes,
        }),
      )
      return
    }
    await tx
      .update(voteCodes)
      .set({ codeHash, createdAt: deps.clock.now() })
      .where(eq(voteCodes.id, existing.id))
    await mailTheCode()
  })
}

/**
 * Counts one vote for a code, once. The unique index on poll_votes.vote_code_id is what holds
 * under concurrency (any number of processes): a second insert for the same code waits for the
 * first to commit and then does nothing. The option must be one of this poll's, which the
 * foreign key (poll_id, option_id) also enforces.
 */
export async function castVote(
  deps: AppDeps,
  pollId: number,
  body: CreatePollVoteBody,
): Promise<Poll> {
  const now = deps.clock.now()
  await transaction(deps, async (tx) => {
    const poll = await findPoll(tx, pollId)
    const [code] = await findCode(tx, poll, body.voteCode)
    const verdict = judgeVoteCode(code, poll, now)
    if (verdict || !code) throw refusalFor[verdict ?? 'invalid']()
    const [option] = await tx
      .select({ id: pollOptions.id })
      .from(pollOptions)
      .where(and(eq(pollOptions.pollId, poll.id), eq(pollOptions.id, body.optionId)))
    if (!option) throw new FieldErrors({ optionId: [POLL_OPTION_MISMATCH_MESSAGE] })

    const [vote] = await tx
      .insert(pollVotes)
      .values({ pollId: poll.id, optionId: option.id, voteCodeId: code.id })
      .onConflictDoNothing({ target: pollVotes.voteCodeId })
      .returning({ id: pollVotes.id })
    if (!vote) throw usedCode()
    const marked = await tx
      .update(voteCodes)
      .set({ usedAt: now })
      .where(and(eq(voteCodes.id, code.id), eq(voteCodes.codeHash, code.codeHash)))
      .returning({ id: voteCodes.id })
    // The code was replaced by a newer one while this vote was on its way: the link it came from
    // no longer stands, so neither does the vote.
    if (marked.length === 0) throw invalidCode()
  })
  return getPoll(deps, pollId, body.voteCode)
}

/**
 * An address that is no longer anyone's (its member deleted their account): its unused vote
 * codes go, and the votes cast with its used ones stay counted, under a code that names no one.
 */
export async function forgetVoter(tx: Tx, address: string): Promise<void> {
  const theirs = sql`lower(${voteCodes.email}) = lower(${address})`
  await tx.delete(voteCodes).where(and(theirs, isNull(voteCodes.usedAt)))
  await tx
    .update(voteCodes)
    .set({ email: sql`'former member #' || ${voteCodes.id}` })
    .where(theirs)
}

export type CreatePollInput = z.output<typeof createPollBodySchema>

/** The operator call: a poll with its options, in the order given. */
export async function createPoll(
  deps: AppDeps,
  actor: AuthUser,
  body: CreatePollInput,
): Promise<Poll> {
  const expiresAt = new Date(body.expires_at)
  if (!isInFuture(expiresAt, deps.clock.now())) {
    throw new FieldErrors({ expires_at: [CLUB_TIME_MESSAGES.past] })
  }
  const pollId = await transaction(deps, async (tx) => {
    const [poll] = await tx
      .insert(polls)
      .values({
        title: body.title,
        description: body.description,
        expiresAt,
        createdById: actor.id,
      })
      .returning({ id: polls.id })
    if (!poll) throw new Error('insert returned no row')
    await tx
      .insert(pollOptions)
      .values(body.options.map((option, position) => ({ ...option, pollId: poll.id, position })))
    return poll.id
  })
  return getPoll(deps, pollId)
}
