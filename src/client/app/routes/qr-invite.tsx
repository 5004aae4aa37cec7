import { ContentLayout } from '#client/components/layouts/content-layout'

export default function QrInviteRoute() {
  return <ContentLayout title="welcome to the club!" />
}
