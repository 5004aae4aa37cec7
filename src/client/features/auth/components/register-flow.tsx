import { useState } from 'react'
import { InviteCodeStep } from './invite-code-step'
import { RegisterForm } from './register-form'

type Step = { name: 'code'; error?: string; fromLink?: boolean } | { name: 'form'; code: string }

type RegisterFlowProps = {
  initialCode?: string
  onRegistered: () => void
}

/** Spec 2 §2 Register: the invite step, then the form (with the code of conduct). */
export function RegisterFlow({ initialCode, onRegistered }: RegisterFlowProps) {
  const [step, setStep] = useState<Step>({ name: 'code', fromLink: true })
  const [code, setCode] = useState(initialCode ?? '')

  if (step.name === 'form') {
    return (
      <div className="grid gap-6">
        <p className="flex flex-wrap items-baseline gap-x-3 gap-y-1 font-mono text-sm text-ink-muted">
          <span>
            invite code <span className="text-ink">{step.code}</span> accepted.
          </span>
          <button
            type="button"
            className="cursor-pointer rounded-sm text-accent underline-offset-4 hover:underline"
            onClick={() => setStep({ name: 'code' })}
          >
            use another code
          </button>
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
      key={step.error ?? (step.fromLink ? 'link' : 'again')}
      initialCode={code}
      initialError={step.error}
      checkOnMount={step.fromLink}
      onValid={(valid) => {
        setCode(valid)
        setStep({ name: 'form', code: valid })
      }}
    />
  )
}
