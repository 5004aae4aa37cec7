import type { AppDeps } from '../../deps'
import { sendDueReminders } from './reminders.service'

/**
 * Looks for due reminders twice a minute, in every process: the claim in `sendDueReminders`
 * makes each notice go out once however many run it. Half a minute keeps the 10-minute notice
 * between 10 and 9.5 minutes before the start.
 */
export const sendDueRemindersJob = {
  id: 'send-due-reminders',
  intervalMs: 30_000,
  run: (deps: AppDeps) => sendDueReminders(deps),
}
