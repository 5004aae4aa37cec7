import { twMerge } from 'tailwind-merge'
import { describe, expect, it } from 'vitest'
import { cn } from './cn'

// Every source file of the page (tests left out), as text.
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>

/** Every token of every string in the client's source that could be a Tailwind class. */
function classesInSource(): string[] {
  const tokens = new Set<string>()
  for (const source of Object.values(sources)) {
    for (const m of source.matchAll(/(['"`])((?:(?!\1)[^\n\\])*)\1/g)) {
      for (const t of m[2]!.split(/\s+/)) {
        if (/^[!a-z0-9\-:[\]/.()_%&>*=#,@]+$/.test(t) && /^[!a-z[-]/.test(t)) tokens.add(t)
      }
    }
  }
  return [...tokens]
}

describe('cn', () => {
  it('lets a later utility override an earlier one of the same kind', () => {
    expect(cn('bg-accent text-on-accent h-10 px-4', 'bg-transparent px-2')).toBe(
      'text-on-accent h-10 bg-transparent px-2',
    )
    expect(cn('border border-ink/80', 'border-paper')).toBe('border border-paper')
    expect(cn('text-sm text-ink', 'text-lg')).toBe('text-ink text-lg')
    expect(cn('px-2 py-1', 'p-4')).toBe('p-4')
    expect(cn('hover:bg-accent-soft bg-paper', 'hover:bg-white/10')).toBe(
      'bg-paper hover:bg-white/10',
    )
    expect(cn('font-mono font-semibold', false, null, undefined, { 'font-bold': true })).toBe(
      'font-mono font-bold',
    )
  })

  it('merges every pair of classes in the source exactly as tailwind-merge does', () => {
    // The source's classes, and common ones a screen may soon pass as overrides.
    const common = `p-0 p-2 px-0 py-4 pt-1 pl-2 m-0 mx-auto mt-4 -mt-2 w-auto h-auto h-12 size-6
      max-w-md min-w-0 text-left text-white text-3xl leading-6 font-normal font-sans bg-white
      bg-transparent border-0 border-2 border-x border-l-4 border-danger rounded rounded-none
      rounded-t-md rounded-lg shadow shadow-none opacity-50 hidden inline block flex-row
      items-end justify-start self-center gap-0 gap-y-2 inset-0 top-2 left-0 z-10 overflow-auto
      transition-opacity duration-300 ease-in-out cursor-default outline-2 outline-accent ring-2
      ring-accent whitespace-normal break-normal tracking-normal uppercase normal-case italic
      underline no-underline grow-0 basis-1/2 col-span-2 grid-cols-2 translate-y-1 scale-95
      md:px-6 sm:grid-cols-2 hover:bg-paper focus-visible:outline-2 disabled:opacity-50`.split(
      /\s+/,
    )
    const classes = [...new Set([...classesInSource(), ...common])]
    expect(classes.length).toBeGreaterThan(200)
    const differences: string[] = []
    for (const a of classes) {
      for (const b of classes) {
        const ours = cn(a, b)
        const theirs = twMerge(a, b)
        if (ours !== theirs)
          differences.push(`cn('${a}', '${b}') = '${ours}', tailwind-merge: '${theirs}'`)
      }
    }
    expect(differences.slice(0, 80)).toEqual([])
  }, 60_000)
})
