import { ContentLayout } from '#client/components/layouts/content-layout'

export default function WaitlistRoute() {
  return <ContentLayout title="waitlist" />
}
