import { useParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'

export default function PollsRoute() {
  const { pollId } = useParams()
  // Spec 2: with no poll id the window says so.
  return <ContentLayout title={pollId ? 'poll' : 'No Poll Selected'} />
}
