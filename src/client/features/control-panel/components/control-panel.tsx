import { RefreshCw } from 'lucide-react'
import { useEffect, type ReactNode } from 'react'
import { useSearchParams } from 'react-router'
import { Button } from '#client/components/ui/button'
import { SectionCard } from '#client/components/ui/card'
import { Spinner } from '#client/components/ui/spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#client/components/ui/tabs'
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

/**
 * The panel's sections, one tab each, so a phone (or a desktop) shows one at a time instead of
 * one long column; the address remembers the open one (?section=mail).
 */
export const SECTIONS = [
  { id: 'podclubs', label: 'podclubs' },
  { id: 'mail', label: 'e-mail & blasts' },
  { id: 'members', label: 'members & codes' },
  { id: 'create', label: 'create & edit' },
  { id: 'notes', label: 'suggestions & feedback' },
] as const
export type SectionId = (typeof SECTIONS)[number]['id']
const SECTION_PARAM = 'section'

function isSectionId(value: string | null): value is SectionId {
  return SECTIONS.some((s) => s.id === value)
}

/**
 * The open section, kept in the address so a reload or a shared link opens the same one; the
 * address is replaced, so Back leaves the panel rather than stepping through its tabs.
 */
function useSection() {
  const [searchParams, setSearchParams] = useSearchParams()
  const param = searchParams.get(SECTION_PARAM)
  const section: SectionId = isSectionId(param) ? param : 'podclubs'
  const showSection = (next: string) => {
    if (!isSectionId(next)) return
    setSearchParams(
      (params) => {
        params.set(SECTION_PARAM, next)
        return params
      },
      { replace: true },
    )
  }
  return { section, showSection }
}

/** The operators' screen (spec 2, Control panel): what is coming, what was sent, who joined. */
export function ControlPanel() {
  const panel = useControlPanel()
  const { isError, error, errorUpdatedAt } = panel
  const { section, showSection } = useSection()

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
  return (
    <div className="grid min-w-0 gap-6" aria-busy={panel.isFetching || undefined}>
      <Tabs value={section} onValueChange={showSection} className="grid min-w-0 gap-8">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <TabsList aria-label="control panel sections">
            {SECTIONS.map(({ id, label }) => (
              <TabsTrigger key={id} value={id}>
                {label}
              </TabsTrigger>
            ))}
          </TabsList>
          <Button
            variant="outline"
            size="sm"
            disabled={panel.isFetching}
            onClick={() => void panel.refetch()}
          >
            <RefreshCw aria-hidden className={panel.isFetching ? 'animate-spin' : undefined} />
            {panel.isFetching ? 'refreshing…' : '[ refresh ]'}
          </Button>
        </div>

        <Section value="podclubs" active={section}>
          <SectionCard id="upcoming" title="Upcoming podclubs">
            <UpcomingPodclubsTable podclubs={data.all_podclubs} />
          </SectionCard>
          <SectionCard
            id="recently-completed"
            title="Recently completed"
            description="The latest podclubs marked complete, the last one first."
          >
            <RecentlyCompletedTable podclubs={data.recently_completed} />
          </SectionCard>
          <SectionCard id="quick-registration" title="Quick Registration">
            <QuickRegistrationForm />
          </SectionCard>
        </Section>

        <Section value="mail" active={section}>
          <SectionCard
            id="blasts"
            title="Monthly blast"
            description="Three upcoming podclub IDs (see the podclubs section), all different. Try the test blast first."
          >
            <div className="grid min-w-0 grid-cols-1 gap-4 lg:grid-cols-2">
              <TestBlastForm />
              <MonthlyBlastForm />
            </div>
          </SectionCard>
          <SectionCard id="emails" title="Recent email activity">
            <EmailActivityTable emails={data.email_tracker} />
          </SectionCard>
        </Section>

        <Section value="members" active={section}>
          <div className="grid min-w-0 grid-cols-1 gap-10 lg:grid-cols-2">
            <SectionCard id="codes" title="Invitation codes">
              <InviteCodesSection codes={data.welcome_codes} />
            </SectionCard>
            <SectionCard id="new-users" title="New users this month">
              <NewUsersList users={data.users_this_month} />
            </SectionCard>
          </div>
          <SectionCard id="waitlist" title="Waitlist">
            <WaitlistTable entries={data.waitlist} />
          </SectionCard>
        </Section>

        <Section value="create" active={section}>
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
        </Section>

        <Section value="notes" active={section}>
          <SectionCard id="suggestions" title="Suggestions">
            <SuggestionsTable suggestions={data.suggestions} />
          </SectionCard>
          <SectionCard id="feedback" title="Feedback">
            <FeedbackTable feedback={data.feedback} />
          </SectionCard>
        </Section>
      </Tabs>
    </div>
  )
}

/** One tab's panel: its sections one under another. */
function Section({
  value,
  active,
  children,
}: {
  value: SectionId
  active: SectionId
  children: ReactNode
}) {
  return (
    <TabsContent value={value} isActive={value === active} className="grid gap-10">
      {children}
    </TabsContent>
  )
}
