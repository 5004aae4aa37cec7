import { ContentLayout } from '#client/components/layouts/content-layout'

export default function ProposeRoute() {
  return <ContentLayout title="propose" />
}
