import { useId, useRef } from 'react'
import { Field } from '#client/components/form/field'
import { PendingButton } from '#client/components/form/pending-button'
import { showServerError } from '#client/components/form/server-error'
import { useContractForm } from '#client/components/form/use-contract-form'
import { toast } from '#client/lib/toast'
import { useSuggestPodcast } from '../api/suggest-podcast'
import { useAnimationGate, useWebAnimations } from '../hooks/use-animation-gate'

const SIDE = 10
/**
 * The cells around a 10×10 grid, clockwise from the top left: 10 along the top, 8 down the right,
 * 10 back along the bottom and 8 up the left, 36 in all. Each edge is drawn as one strip, so the
 * sides run the whole height between the top and bottom rows whatever the card's height.
 */
const EDGES = [
  { from: 0, count: SIDE, className: 'inset-x-0 top-0 h-1.5 flex-row' },
  { from: SIDE, count: SIDE - 2, className: 'inset-y-2 right-0 w-1.5 flex-col' },
  { from: 2 * SIDE - 2, count: SIDE, className: 'inset-x-0 bottom-0 h-1.5 flex-row-reverse' },
  { from: 3 * SIDE - 2, count: SIDE - 2, className: 'inset-y-2 left-0 w-1.5 flex-col-reverse' },
] as const
const PERIMETER_LENGTH = 4 * SIDE - 4
const TRAIL = 6
const TICK_MS = 300

/**
 * A round of the border, one 300 ms tick per cell: a cell is lit for its tick, at 40% for the
 * next five (the trail), then off until its tick comes round again. Each cell's round starts
 * at its own tick (a negative delay). Opacity only, as Web Animations: the compositor runs them.
 */
function tickCells(cells: Element[]): Animation[] {
  const round = PERIMETER_LENGTH * TICK_MS
  return cells.map((cell, i) =>
    cell.animate(
      [
        { opacity: 1, offset: 0, easing: 'step-end' },
        { opacity: 0.4, offset: 1 / PERIMETER_LENGTH, easing: 'step-end' },
        { opacity: 0, offset: TRAIL / PERIMETER_LENGTH },
        { opacity: 0, offset: 1 },
      ],
      {
        duration: round,
        delay: -(((PERIMETER_LENGTH - i) % PERIMETER_LENGTH) * TICK_MS),
        iterations: Infinity,
      },
    ),
  )
}

/**
 * The suggestion's schema, loaded on the member's first key, tap, focus, click or submit in the
 * page (`useContractForm`, decision 011).
 */
const loadSuggestionSchema = () =>
  import('#contract/suggestions').then((m) => m.createSuggestionBodySchema)

/** Spec 1 §2, Propose card: suggest a podcast, framed by a border that ticks every 300 ms. */
export function SuggestCard() {
  const id = useId()
  // Spec 1 §5: each field is checked as it is typed in.
  const form = useContractForm(loadSuggestionSchema, {
    defaultValues: { podcastLink: '', reason: '' },
    mode: 'onChange',
  })
  const { errors, isValid } = form.formState
  const suggest = useSuggestPodcast()
  const { ref, isActive } = useAnimationGate<HTMLDivElement>()
  const border = useRef<HTMLDivElement>(null)
  // The lit layer of each cell: the page lists them in the order of the round, edge by edge.
  useWebAnimations(
    () => tickCells([...(border.current?.querySelectorAll('[data-cell]') ?? [])]),
    isActive,
  )
  const isSubmitting = suggest.isPending

  const handleSubmit = form.handleSubmit((body) =>
    suggest.mutate(body, {
      onSuccess: () => {
        form.reset()
        toast({
          title: 'Podcast Suggested!',
          description: "Thanks for the suggestion! We'll review it and create a podclub soon.",
        })
      },
      onError: (error) => showServerError(form, error, { title: 'Failed to Submit' }),
    }),
  )

  return (
    <div ref={ref} className="relative h-full rounded-sm bg-paper-raised p-3">
      <div ref={border} aria-hidden className="pointer-events-none absolute inset-0">
        {EDGES.map((edge) => (
          <div key={edge.from} className={`absolute flex gap-0.5 ${edge.className}`}>
            {Array.from({ length: edge.count }, (_, n) => {
              const i = edge.from + n
              return (
                <span key={i} className="relative flex-1 rounded-[1px] bg-line/60">
                  <span data-cell className="absolute inset-0 rounded-[1px] bg-accent opacity-0" />
                </span>
              )
            })}
          </div>
        ))}
      </div>
      <form
        onSubmit={handleSubmit}
        noValidate
        className="relative grid gap-4 p-4"
        aria-labelledby={`${id}-title`}
      >
        <h2 id={`${id}-title`} className="font-mono text-lg font-semibold">
          suggest a podcast
        </h2>
        <p className="text-sm text-ink-muted">
          Heard an episode worth an hour of talk? Send it our way and we&apos;ll find it a
          podmeister.
        </p>
        <Field
          label="Podcast episode link"
          type="url"
          inputMode="url"
          placeholder="https://"
          disabled={isSubmitting}
          error={errors.podcastLink?.message}
          {...form.register('podcastLink')}
        />
        <Field
          as="textarea"
          label="Why this one? (optional)"
          size="sm"
          disabled={isSubmitting}
          error={errors.reason?.message}
          {...form.register('reason')}
        />
        {/* Spec 1 §4: submitting disables the inputs and reads 'submitting...'. */}
        <PendingButton
          isPending={isSubmitting}
          pendingLabel="submitting..."
          spinner={false}
          disabled={!isValid}
        >
          [ suggest ]
        </PendingButton>
      </form>
    </div>
  )
}
