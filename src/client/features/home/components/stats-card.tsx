import { useState } from 'react'
import { useAnimationGate, useInterval } from '../hooks/use-animation-gate'
import { formatCount } from '#client/lib/text'
import { useSplashStats } from '../api/get-splash-stats'

const ROWS = [
  { key: 'member_count', label: 'members', hoverLabel: 'POTENTIAL BEST FRIENDS' },
  { key: 'completed_podclub_count', label: 'pods discussed', hoverLabel: 'LIFE-ENHANCING CONVOS' },
  { key: 'cities_count', label: 'cities represented', hoverLabel: 'FUTURE ROAD TRIPS' },
] as const

/**
 * Spec 1 §2, Stats card: three numbers ('---' while loading or failed); a hovered row shows its
 * other label, and while nothing is hovered a random row lights up for 1 s every 4 s.
 */
export function StatsCard() {
  const stats = useSplashStats()
  const { ref, isActive } = useAnimationGate<HTMLDivElement>()
  const [hovered, setHovered] = useState<number | null>(null)
  const [highlighted, setHighlighted] = useState<number | null>(null)

  useInterval(
    () => {
      setHighlighted(Math.floor(Math.random() * ROWS.length))
      window.setTimeout(() => setHighlighted(null), 1000)
    },
    4000,
    isActive && hovered === null,
  )

  return (
    <div
      ref={ref}
      className="flex h-full flex-col gap-4 rounded-sm border border-line bg-paper-raised p-6"
    >
      <h2 className="font-mono text-sm text-ink-muted">the club in numbers</h2>
      <dl className="grid gap-3">
        {ROWS.map((row, i) => {
          const isLit = hovered === i || (hovered === null && highlighted === i)
          const value = stats.data ? formatCount(stats.data[row.key]) : '---'
          return (
            <div
              key={row.key}
              onMouseEnter={() => setHovered(i)}
              onMouseLeave={() => setHovered(null)}
              className={`flex flex-col-reverse rounded-sm px-3 py-2 transition-colors duration-300 motion-reduce:transition-none ${
                isLit ? 'bg-accent text-on-accent' : ''
              }`}
            >
              <dt className="font-mono text-xs tracking-wide uppercase">
                {hovered === i ? row.hoverLabel : row.label}
              </dt>
              <dd className="font-mono text-4xl font-semibold tabular-nums">{value}</dd>
            </div>
          )
        })}
      </dl>
    </div>
  )
}
