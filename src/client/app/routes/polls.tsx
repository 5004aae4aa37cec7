import { Link, useParams } from 'react-router'
import { pages } from '#contract/pages'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { Button } from '#client/components/ui/button'
import { PollWindow } from '#client/features/polls/components/poll-window'

export default function PollsRoute() {
  const { pollId, voteCode } = useParams()
  // Spec 2: with no poll id the window says so; and says where a poll's address comes from.
  if (!pollId) {
    return (
      <ContentLayout title="No Poll Selected">
        <div className="grid max-w-prose justify-items-start gap-4">
          <p>
            Each monthly poll has its own address. Open the poll link from your vote-code e-mail, or
            the one a member shared with you, to see the options and vote.
          </p>
          <p className="text-ink-muted">Meanwhile, the home feed lists every podclub coming up.</p>
          <Button asChild variant="outline">
            <Link to={pages.home.path}>Go Home</Link>
          </Button>
        </div>
      </ContentLayout>
    )
  }
  // A new poll id starts the window afresh (spec 2 §4: all state resets).
  return <PollWindow key={pollId} pollId={pollId} voteCode={voteCode} />
}
