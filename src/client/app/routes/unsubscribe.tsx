import { useParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { UnsubscribePanel } from '#client/features/blasts/components/unsubscribe-panel'

export default function UnsubscribeRoute() {
  const { uid = '', token = '' } = useParams()
  return (
    <ContentLayout title="unsubscribe">
      <UnsubscribePanel uid={uid} token={token} />
    </ContentLayout>
  )
}
