import { ContentLayout } from '#client/components/layouts/content-layout'
import { ControlPanel } from '#client/features/control-panel/components/control-panel'

export default function ControlPanelRoute() {
  return (
    <ContentLayout title="control panel">
      <ControlPanel />
    </ContentLayout>
  )
}
