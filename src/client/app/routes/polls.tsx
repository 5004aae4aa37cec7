import { useParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { PollWindow } from '#client/features/polls/components/poll-window'

export default function PollsRoute() {
  const { pollId, voteCode } = useParams()
  // Spec 2: with no poll id the window says so.
  if (!pollId) {
    return (
      <ContentLayout title="No Poll Selected">
        <p className="text-ink-muted">Open the poll link from your vote-code e-mail.</p>
      </ContentLayout>
    )
  }
  // A new poll id starts the window afresh (spec 2 §4: all state resets).
  return <PollWindow key={pollId} pollId={pollId} voteCode={voteCode} />
}
