import { ContentLayout } from '#client/components/layouts/content-layout'

export default function PodclubRoute() {
  return <ContentLayout title="podclub" />
}
