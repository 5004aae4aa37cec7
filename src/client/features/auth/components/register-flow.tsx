import { useState } from 'react'
import { InviteCodeStep } from './invite-code-step'
import { RegisterForm } from './register-form'

type Step = { name: 'code'; error?: string } | { name: 'form'; code: string }

type RegisterFlowProps = {
  initialCode?: string
  onRegistered: () => void
}

/** Spec 2 §2 Register: the invite step, then the form (with the code of conduct). */
export function RegisterFlow({ initialCode, onRegistered }: RegisterFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'code' })
  const [code, setCode] = useState(initialCode ?? '')

  if (step.name === 'form') {
    return (
      <div className="grid gap-6">
        <p className="font-mono text-sm text-ink-muted">
          invite code <span className="text-ink">{step.code}</span> accepted.
        </p>
        <RegisterForm
          inviteCode={step.code}
          onSuccess={onRegistered}
          onCodeRefused={(error) => setStep({ name: 'code', error })}
        />
      </div>
    )
  }
  return (
    <InviteCodeStep
      // A refusal remounts the step with the refused code and its message.
      key={step.error ?? 'first'}
      initialCode={code}
      initialError={step.error}
      onValid={(valid) => {
        setCode(valid)
        setStep({ name: 'form', code: valid })
      }}
    />
  )
}
