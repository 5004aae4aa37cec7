import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names, and when two Tailwind utilities set the same thing (`bg-accent` then
 * `bg-transparent`, `px-4` then `px-2`), keeps the later one, so a `className` passed to a
 * primitive overrides its defaults. A small stand-in for tailwind-merge (whose full rule set
 * weighed 8 KB gzip on the first load): it knows the utility groups this page uses, and
 * `cn.test.ts` checks it against tailwind-merge for every class the client's source contains.
 */
export function cn(...inputs: ClassValue[]) {
  return mergeClasses(clsx(inputs))
}

const SIZES =
  /^(xs|sm|base|md|lg|xl|\d?xl|none|full|px|\d+(\.\d+)?|\d+\/\d+|auto|screen|dvh|svh|lvh|min|max|fit|prose|\[.+\]|\(.+\))$/

// A utility that is a keyword on its own: its group.
const KEYWORDS: Record<string, string> = {}
const keywordGroups: Record<string, string> = {
  display:
    'block inline-block inline flex inline-flex grid inline-grid hidden contents table table-row table-cell flow-root list-item',
  position: 'static fixed absolute relative sticky',
  visibility: 'visible invisible collapse',
  sr: 'sr-only not-sr-only',
  'font-style': 'italic not-italic',
  'text-transform': 'uppercase lowercase capitalize normal-case',
  'text-decoration': 'underline overline line-through no-underline',
  'text-overflow': 'truncate text-ellipsis text-clip',
  'font-smoothing': 'antialiased subpixel-antialiased',
  'fvn-spacing': 'tabular-nums proportional-nums',
  'flex-direction': 'flex-row flex-row-reverse flex-col flex-col-reverse',
  'flex-wrap': 'flex-wrap flex-wrap-reverse flex-nowrap',
  flex: 'flex-1 flex-auto flex-initial flex-none',
  break: 'break-normal break-words break-all break-keep',
  'overflow-wrap': 'wrap-break-word wrap-anywhere wrap-normal',
  'text-wrap': 'text-wrap text-nowrap text-balance text-pretty',
  'text-alignment': 'text-left text-center text-right text-justify text-start text-end',
  shadow: 'shadow',
  'outline-w': 'outline',
  transition:
    'transition transition-none transition-all transition-colors transition-opacity transition-shadow transition-transform',
  grow: 'grow',
  shrink: 'shrink',
  'outline-style':
    'outline-none outline-solid outline-dashed outline-dotted outline-double outline-hidden',
  'bg-image': 'bg-none',
  'pointer-events': 'pointer-events-none pointer-events-auto',
  select: 'select-none select-text select-all select-auto',
  'list-style-type': 'list-none list-disc list-decimal',
  'object-fit': 'object-contain object-cover object-fill object-none object-scale-down',
  resize: 'resize-none resize resize-x resize-y',
  whitespace:
    'whitespace-normal whitespace-nowrap whitespace-pre whitespace-pre-line whitespace-pre-wrap whitespace-break-spaces',
  'border-style':
    'border-solid border-dashed border-dotted border-double border-hidden border-none',
  'bg-size': 'bg-auto bg-cover bg-contain',
}
for (const [group, words] of Object.entries(keywordGroups))
  for (const word of words.split(' ')) KEYWORDS[word] = group

const SPACE =
  /^(\d+(\.\d+)?|px|auto|full|screen|min|max|fit|dvh|svh|lvh|dvw|svw|lvw|prose|none|xs|sm|md|lg|\d?xl|\d+\/\d+|\[.+\]|\(.+\))$/
const NUMBER = /^(\d+(\.\d+)?|\[.+\]|\(.+\))$/
const ANY = /^.+$/

// `prefix-value` utilities: the group, and the values that make the utility one of them.
const PREFIXES: [string, string, RegExp][] = (
  [
    ['p px py ps pe pt pr pb pl m mx my ms me mt mr mb ml', SPACE],
    ['gap gap-x gap-y space-x space-y', SPACE],
    ['w h size min-w min-h max-w max-h basis', SPACE],
    ['inset inset-x inset-y top right bottom left start end', SPACE],
    ['translate-x translate-y', SPACE],
    ['z order opacity duration delay scale rotate line-clamp grow shrink', NUMBER],
    ['grid-cols grid-rows col-span row-span', /^(\d+|none|subgrid|full|\[.+\]|\(.+\))$/],
    ['leading tracking cursor ease origin', ANY],
    ['animate', /^(spin|ping|pulse|bounce|none|\[.+\]|\(.+\))$/],
    ['overflow overflow-x overflow-y', /^(auto|hidden|clip|visible|scroll)$/],
    ['items', /^(start|end|center|baseline|stretch|end-safe|center-safe)$/],
    [
      'justify',
      /^(start|end|center|between|around|evenly|stretch|normal|baseline|end-safe|center-safe)$/,
    ],
    [
      'justify-items justify-self place-items place-self self',
      /^(auto|start|end|center|stretch|baseline|normal|end-safe|center-safe)$/,
    ],
    ['content place-content', /^(center|start|end|between|around|evenly|baseline|stretch|normal)$/],
    ['underline-offset outline-offset ring-offset', NUMBER],
    ['from via to fill', ANY],
    ['aspect', /^(auto|square|video|\d+\/\d+|\[.+\]|\(.+\))$/],
  ] as const
).flatMap(([prefixes, values]) =>
  prefixes.split(' ').map((prefix): [string, string, RegExp] => [prefix, prefix, values]),
)
// The longest prefix is tried first: `gap-x-3` is a gap-x, not a gap.
PREFIXES.sort((a, b) => b[0].length - a[0].length)

// Sides of rounded-* and border-* that set only part of what the bare utility sets.
const ROUNDED_SIDES = ['t', 'r', 'b', 'l', 's', 'e', 'tl', 'tr', 'br', 'bl', 'ss', 'se', 'es', 'ee']
const BORDER_SIDES = ['x', 'y', 't', 'r', 'b', 'l', 's', 'e']

const isLength = (v: string) =>
  /^(\d+(\.\d+)?(px)?|px|0|\[\d.*(px|rem|em)\]|\(length:.+\))$/.test(v)
const FONT_WEIGHTS = /^(thin|extralight|light|normal|medium|semibold|bold|extrabold|black|\[\d+\])$/
const TEXT_SIZES = /^(xs|sm|base|lg|\d?xl|\[[\d.]+(px|rem|em)\]|\(length:.+\))$/

/** The group a utility belongs to (utilities in one group set the same thing), or null. */
function groupOf(utility: string): string | null {
  const negative = utility.startsWith('-')
  const u = negative ? utility.slice(1) : utility
  if (KEYWORDS[u]) return KEYWORDS[u]
  let m: RegExpExecArray | null
  // An arbitrary property, `[animation-duration:2.4s]`, is grouped by the property.
  if ((m = /^\[([a-z-]+):.+\]$/.exec(u))) return `[${m[1]}]`
  if ((m = /^text-(.+)$/.exec(u))) return TEXT_SIZES.test(m[1]!) ? 'font-size' : 'text-color'
  if ((m = /^font-(.+)$/.exec(u))) return FONT_WEIGHTS.test(m[1]!) ? 'font-weight' : 'font-family'
  if ((m = /^shadow-(.+)$/.exec(u))) return SIZES.test(m[1]!) ? 'shadow' : 'shadow-color'
  if ((m = /^outline-(.+)$/.exec(u))) return isLength(m[1]!) ? 'outline-w' : 'outline-color'
  if ((m = /^stroke-(.+)$/.exec(u))) return NUMBER.test(m[1]!) ? 'stroke-w' : 'stroke'
  if ((m = /^ring-(.+)$/.exec(u))) return isLength(m[1]!) ? 'ring-w' : 'ring-color'
  if ((m = /^bg-linear-(.+)$/.exec(u))) return 'bg-image'
  if ((m = /^bg-(.+)$/.exec(u))) return 'bg-color'
  if ((m = /^rounded(?:-(.+))?$/.exec(u))) {
    const [first, ...rest] = (m[1] ?? '').split('-')
    return first && ROUNDED_SIDES.includes(first) && rest.length <= 1
      ? `rounded-${first}`
      : 'rounded'
  }
  if ((m = /^border(?:-([xytrblse]))?(?:-(.+))?$/.exec(u))) {
    const side = m[1] && BORDER_SIDES.includes(m[1]) ? m[1] : ''
    const value = m[2] ?? ''
    if (!side && m[1]) return null
    const kind = value === '' || isLength(value) ? 'w' : 'color'
    return side ? `border-${kind}-${side}` : `border-${kind}`
  }
  for (const [prefix, group, values] of PREFIXES) {
    if (u.startsWith(`${prefix}-`)) return values.test(u.slice(prefix.length + 1)) ? group : null
  }
  return null
}

// Groups that a later utility overrides as a whole: `p-4` after `px-2` wins over both.
const OVERRIDES: Record<string, string[]> = {
  p: ['px', 'py', 'ps', 'pe', 'pt', 'pr', 'pb', 'pl'],
  px: ['pr', 'pl'],
  py: ['pt', 'pb'],
  m: ['mx', 'my', 'ms', 'me', 'mt', 'mr', 'mb', 'ml'],
  mx: ['mr', 'ml'],
  my: ['mt', 'mb'],
  gap: ['gap-x', 'gap-y'],
  size: ['w', 'h'],
  inset: ['inset-x', 'inset-y', 'start', 'end', 'top', 'right', 'bottom', 'left'],
  'inset-x': ['right', 'left'],
  'inset-y': ['top', 'bottom'],
  rounded: ROUNDED_SIDES.map((s) => `rounded-${s}`),
  'border-w': BORDER_SIDES.map((s) => `border-w-${s}`),
  'border-color': BORDER_SIDES.map((s) => `border-color-${s}`),
  'border-w-x': ['border-w-r', 'border-w-l'],
  'border-w-y': ['border-w-t', 'border-w-b'],
  'font-size': ['leading'],
  overflow: ['overflow-x', 'overflow-y'],
  flex: ['grow', 'shrink', 'basis'],
}

/** Keeps the last utility of each group (per variant), and any class it does not know. */
export function mergeClasses(classes: string): string {
  const seen = new Set<string>()
  const kept: string[] = []
  const list = classes.split(/\s+/).filter(Boolean)
  for (let i = list.length - 1; i >= 0; i--) {
    const cls = list[i]!
    // Variants are everything before the last ':' outside brackets and parentheses.
    let depth = 0
    let split = -1
    for (let j = 0; j < cls.length; j++) {
      const ch = cls[j]
      if (ch === '[' || ch === '(') depth++
      else if (ch === ']' || ch === ')') depth--
      else if (ch === ':' && depth === 0) split = j
    }
    let utility = cls.slice(split + 1)
    const variants = split >= 0 ? cls.slice(0, split).split(':').sort().join(':') : ''
    const important = utility.startsWith('!') || utility.endsWith('!')
    utility = utility.replace(/^!|!$/g, '')
    const group = groupOf(utility)
    if (!group) {
      kept.push(cls)
      continue
    }
    const key = `${variants}|${important ? '!' : ''}|`
    if (seen.has(key + group)) continue
    seen.add(key + group)
    for (const covered of OVERRIDES[group] ?? []) seen.add(key + covered)
    kept.push(cls)
  }
  return kept.reverse().join(' ')
}
