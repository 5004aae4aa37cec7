import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '#client/components/ui/button'
import { useAnimationGate, useInterval } from '../hooks/use-animation-gate'

const TITLE = 'what is podclub?'
const GLYPHS = 'abcdefghijklmnopqrstuvwxyz#%&*+=?'
const STEP_MS = 50
const PAUSE_MS = 3000

/** The title as it decodes: `revealed` letters in place, the rest scrambled. */
export function scrambled(text: string, revealed: number, random = Math.random) {
  return [...text]
    .map((ch, i) =>
      i < revealed || ch === ' ' ? ch : GLYPHS[Math.floor(random() * GLYPHS.length)],
    )
    .join('')
}

/** Spec 1 §2, About card: a title that unscrambles every 50 ms, rests 3 s, and starts over. */
export function AboutCard() {
  const { ref, isActive } = useAnimationGate<HTMLDivElement>()
  // How many letters are decoded: one more every 50 ms, then, all of them shown, one timer
  // waits out the rest and starts over (nothing ticks while the title rests).
  const [step, setStep] = useState(TITLE.length)
  const isResting = step >= TITLE.length
  useInterval(() => setStep((s) => s + 1), STEP_MS, isActive && !isResting)
  useEffect(() => {
    if (!isActive || !isResting) return
    const id = window.setTimeout(() => setStep(0), PAUSE_MS)
    return () => window.clearTimeout(id)
  }, [isActive, isResting])
  const shown = isActive && step < TITLE.length ? scrambled(TITLE, step) : TITLE

  return (
    <div
      ref={ref}
      className="flex h-full flex-col gap-6 rounded-sm border border-ink bg-ink p-6 text-paper"
    >
      <h2 className="font-mono text-2xl font-semibold">
        <span aria-hidden>{shown}</span>
        <span className="sr-only">{TITLE}</span>
      </h2>
      <p className="text-paper/85">
        An invite-only book club for podcasts. Nine members and a podmeister pick one episode,
        listen on their own, then meet on Zoom or in New York to talk it through. No algorithm
        decides what you hear next: your fellow listeners do.
      </p>
      <Button asChild variant="inverse" className="mt-auto self-start">
        <Link to="/about">[ read more ]</Link>
      </Button>
    </div>
  )
}
