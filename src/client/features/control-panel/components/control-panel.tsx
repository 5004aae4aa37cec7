import { RefreshCw } from 'lucide-react'
import { useEffect } from 'react'
import { Button } from '#client/components/ui/button'
import { SectionCard } from '#client/components/ui/card'
import { Spinner } from '#client/components/ui/spinner'
import { toast } from '#client/lib/toast'
import { useControlPanel } from '../api/get-control-panel'
import { MonthlyBlastForm, TestBlastForm } from './blast-forms'
import { ChatlogForm } from './chatlog-form'
import { CreatePodclubForm } from './create-podclub-form'
import { CreatePollForm } from './create-poll-form'
import { FeedbackTable, SuggestionsTable, WaitlistTable } from './club-lists'
import { EditPodclubForm } from './edit-podclub-form'
import { EmailActivityTable } from './email-activity-table'
import { InviteCodesSection } from './invite-codes-section'
import { NewUsersList } from './new-users-list'
import { QuickRegistrationForm } from './quick-registration-form'
import { RecentlyCompletedTable, UpcomingPodclubsTable } from './upcoming-podclubs-table'

/** The operators' screen (spec 2, Control panel): what is coming, what was sent, who joined. */
export function ControlPanel() {
  const panel = useControlPanel()
  const { isError, error, errorUpdatedAt } = panel

  useEffect(() => {
    if (isError)
      toast({ title: 'Failed to fetch data', description: error.message, variant: 'destructive' })
  }, [isError, error, errorUpdatedAt])

  if (panel.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 font-mono text-sm text-ink-muted">
        <Spinner className="size-4" />
        loading the control panel…
      </p>
    )
  }

  // A failed refresh keeps the data already shown; the toast says it failed.
  if (!panel.data) {
    return (
      <div role="alert" className="grid justify-items-start gap-3">
        <p className="text-danger">Failed to fetch data: {panel.error?.message}</p>
        <Button variant="outline" onClick={() => void panel.refetch()}>
          [ try again ]
        </Button>
      </div>
    )
  }

  const data = panel.data
  const refresh = (
    <Button
      variant="outline"
      size="sm"
      disabled={panel.isFetching}
      onClick={() => void panel.refetch()}
    >
      <RefreshCw aria-hidden className={panel.isFetching ? 'animate-spin' : undefined} />
      {panel.isFetching ? 'refreshing…' : '[ refresh ]'}
    </Button>
  )

  return (
    <div className="grid min-w-0 grid-cols-1 gap-10" aria-busy={panel.isFetching || undefined}>
      <SectionCard id="upcoming" title="Upcoming podclubs" actions={refresh}>
        <UpcomingPodclubsTable podclubs={data.all_podclubs} />
      </SectionCard>

      <SectionCard
        id="recently-completed"
        title="Recently completed"
        description="The latest podclubs marked complete, the last one first."
      >
        <RecentlyCompletedTable podclubs={data.recently_completed} />
      </SectionCard>

      <SectionCard
        id="blasts"
        title="Monthly blast"
        description="Three upcoming podclub IDs, all different. Try the test blast first."
      >
        <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
          <TestBlastForm />
          <MonthlyBlastForm />
        </div>
      </SectionCard>

      <SectionCard id="quick-registration" title="Quick Registration">
        <QuickRegistrationForm />
      </SectionCard>

      <SectionCard id="emails" title="Recent email activity">
        <EmailActivityTable emails={data.email_tracker} />
      </SectionCard>

      <div className="grid min-w-0 grid-cols-1 gap-10 lg:grid-cols-2">
        <SectionCard id="codes" title="Invitation codes">
          <InviteCodesSection codes={data.welcome_codes} />
        </SectionCard>
        <SectionCard id="new-users" title="New users this month">
          <NewUsersList users={data.users_this_month} />
        </SectionCard>
      </div>

      <SectionCard id="create-podclub" title="Create a podclub">
        <CreatePodclubForm />
      </SectionCard>

      <SectionCard id="edit-podclub" title="Edit a podclub">
        <EditPodclubForm podclubs={data.all_podclubs} />
      </SectionCard>

      <SectionCard id="chatlog" title="Zoom chat log">
        <ChatlogForm />
      </SectionCard>

      <SectionCard id="create-poll" title="Create a poll">
        <CreatePollForm />
      </SectionCard>

      <SectionCard id="waitlist" title="Waitlist">
        <WaitlistTable entries={data.waitlist} />
      </SectionCard>
      <SectionCard id="suggestions" title="Suggestions">
        <SuggestionsTable suggestions={data.suggestions} />
      </SectionCard>
      <SectionCard id="feedback" title="Feedback">
        <FeedbackTable feedback={data.feedback} />
      </SectionCard>
    </div>
  )
}
