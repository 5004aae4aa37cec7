import { ContentLayout } from '#client/components/layouts/content-layout'

export default function AboutRoute() {
  return <ContentLayout title="about" />
}
