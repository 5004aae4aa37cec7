import { useNavigate, useSearchParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { ProposeWizard, WIZARD_STEPS } from '#client/features/proposals/components/propose-wizard'

/** The step lives in the URL (`?step=2`), so a reload keeps the place. */
function stepFrom(params: URLSearchParams) {
  const step = Number.parseInt(params.get('step') ?? '1', 10)
  return Number.isInteger(step) && step >= 1 && step <= WIZARD_STEPS ? step : 1
}

export default function ProposeRoute() {
  const [params, setParams] = useSearchParams()
  const navigate = useNavigate()
  return (
    <ContentLayout title="propose a podclub">
      <ProposeWizard
        step={stepFrom(params)}
        onStepChange={(step) => setParams({ step: String(step) })}
        onSubmitted={() => void navigate('/home')}
      />
    </ContentLayout>
  )
}
