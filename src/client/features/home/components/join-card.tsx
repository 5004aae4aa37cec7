import { useEffect, useRef, useState } from 'react'
import { Link } from 'react-router'
import { Button } from '#client/components/ui/button'
import { useAnimationGate } from '../hooks/use-animation-gate'
import { TAGLINES } from '../lib/copy'

/** Four gradients; a card picks one by its instance number. */
const PALETTES = [
  'from-[#1d4a36] to-[#0f2a1e]',
  'from-[#3b2a5c] to-[#1c1430]',
  'from-[#7a3416] to-[#3d1a0b]',
  'from-[#1b3d63] to-[#0c1e33]',
] as const
const SPARKLES = 15

/** For visitors (spec 1 §2, Join card): a tagline, sparkles and the way to sign up. */
export function JoinCard({ instance = 0 }: { instance?: number }) {
  const [tagline] = useState(() => TAGLINES[Math.floor(Math.random() * TAGLINES.length)]!)
  const palette = PALETTES[((instance % PALETTES.length) + PALETTES.length) % PALETTES.length]
  const { ref, isActive } = useAnimationGate<HTMLDivElement>()
  return (
    <div
      ref={ref}
      className={`relative flex h-full min-h-[400px] flex-col justify-between overflow-hidden rounded-sm bg-gradient-to-br p-6 text-on-accent ${palette}`}
    >
      <SparkleCanvas isActive={isActive} />
      <p className="relative font-mono text-2xl leading-tight font-semibold text-balance">
        {tagline}
      </p>
      <div className="relative grid gap-4">
        <p className="text-lg">Ready to talk about more than just the weather?</p>
        <Button
          asChild
          variant="outline"
          className="border-on-accent bg-transparent text-on-accent hover:bg-white/10"
        >
          <Link to="/register">[ join the club ]</Link>
        </Button>
      </div>
    </div>
  )
}

type Particle = { x: number; y: number; r: number; vy: number; phase: number }

/** 15 drifting, twinkling points; drawn only while the card is on screen and motion is welcome. */
function SparkleCanvas({ isActive }: { isActive: boolean }) {
  const canvasRef = useRef<HTMLCanvasElement>(null)
  const particles = useRef<Particle[]>([])

  useEffect(() => {
    const canvas = canvasRef.current
    const context = canvas?.getContext('2d')
    if (!canvas || !context) return
    const fit = () => {
      const ratio = window.devicePixelRatio || 1
      canvas.width = canvas.clientWidth * ratio
      canvas.height = canvas.clientHeight * ratio
      context.setTransform(ratio, 0, 0, ratio, 0, 0)
    }
    fit()
    if (particles.current.length === 0) {
      particles.current = Array.from({ length: SPARKLES }, () => ({
        x: Math.random() * canvas.clientWidth,
        y: Math.random() * canvas.clientHeight,
        r: 0.8 + Math.random() * 1.8,
        vy: 0.08 + Math.random() * 0.25,
        phase: Math.random() * Math.PI * 2,
      }))
    }
    const draw = (t: number) => {
      const w = canvas.clientWidth
      const h = canvas.clientHeight
      context.clearRect(0, 0, w, h)
      for (const p of particles.current) {
        const alpha = 0.35 + 0.65 * Math.abs(Math.sin(p.phase + t / 700))
        context.fillStyle = `rgba(255, 250, 230, ${alpha.toFixed(2)})`
        context.beginPath()
        context.arc(p.x, p.y, p.r, 0, Math.PI * 2)
        context.fill()
      }
    }
    draw(0)
    if (!isActive) return
    let frame = 0
    const step = (t: number) => {
      for (const p of particles.current) {
        p.y -= p.vy
        if (p.y < -4) {
          p.y = canvas.clientHeight + 4
          p.x = Math.random() * canvas.clientWidth
        }
      }
      draw(t)
      frame = requestAnimationFrame(step)
    }
    frame = requestAnimationFrame(step)
    window.addEventListener('resize', fit)
    return () => {
      cancelAnimationFrame(frame)
      window.removeEventListener('resize', fit)
    }
  }, [isActive])

  return (
    <canvas
      ref={canvasRef}
      aria-hidden
      className="pointer-events-none absolute inset-0 size-full"
    />
  )
}
