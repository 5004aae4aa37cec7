import { isNull } from 'drizzle-orm'
import { users } from '../../db/schema/index'

/**
 * SQL condition on `users`: a live account, not one its member deleted. A deleted account keeps
 * its row, anonymised, for what the member wrote and took part in (docs/decisions/019): it has no
 * address to mail, no name to log in or be found by, and does not count as a member.
 */
export const isActiveAccount = () => isNull(users.deletedAt)
