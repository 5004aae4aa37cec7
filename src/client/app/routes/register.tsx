import { useNavigate, useParams } from 'react-router'
import { ContentLayout } from '#client/components/layouts/content-layout'
import { RegisterFlow } from '#client/features/auth/components/register-flow'

export default function RegisterRoute() {
  const { code } = useParams()
  const navigate = useNavigate()
  return (
    <ContentLayout title="register">
      <RegisterFlow
        // A new code in the path starts the flow again.
        key={code ?? ''}
        initialCode={code}
        onRegistered={() => void navigate('/home')}
      />
    </ContentLayout>
  )
}
