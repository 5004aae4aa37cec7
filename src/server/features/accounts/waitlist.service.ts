import { sql } from 'drizzle-orm'
import type { CreateWaitlistEntryBody } from '#contract/accounts'
import type { Tx } from '../../db/client'
import type { AppDeps } from '../../deps'
import { transaction } from '../../db/transaction'
import { waitlistEntries } from '../../db/schema/index'

/**
 * POST /waitlist/: one row per address, whatever its case. A second request for a known
 * address changes nothing and gets the same answer, so the form does not tell who is waiting.
 */
export async function joinWaitlist(
  deps: AppDeps,
  entry: Required<CreateWaitlistEntryBody>,
): Promise<void> {
  await transaction(deps, async (tx) => {
    await tx
      .insert(waitlistEntries)
      .values({ email: entry.email, how: entry.how, favoritePodcast: entry.favoritePodcast })
      .onConflictDoNothing()
  })
}

/** An address that is no longer anyone's (its member deleted their account) leaves the list. */
export async function leaveWaitlist(tx: Tx, address: string): Promise<void> {
  await tx.delete(waitlistEntries).where(sql`lower(${waitlistEntries.email}) = lower(${address})`)
}
