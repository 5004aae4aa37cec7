import { ContentLayout } from '#client/components/layouts/content-layout'

export default function ControlPanelRoute() {
  return <ContentLayout title="control panel" />
}
