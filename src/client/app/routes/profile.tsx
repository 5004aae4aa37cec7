import { ContentLayout } from '#client/components/layouts/content-layout'

export default function ProfileRoute() {
  return <ContentLayout title="profile" />
}
