import { useId, useState } from 'react'
import {
  CLUB_TIME_ABBREVIATION,
  CLUB_TIME_NAME,
  clubDateOf,
  clubDateTimeParts,
  parseClubDateTime,
} from '#contract/club-time'
import { PROPOSAL_DEFAULT_TIME, proposalDayRange } from '#contract/proposals'
import { localTimeOf } from '#client/components/club-time'
import { Input } from '#client/components/ui/input'
import { Label } from '#client/components/ui/label'
import { cn } from '#client/lib/cn'
import { halfHoursOn, timeLabel } from '../lib/schedule'

type SchedulePickerProps = {
  value: string
  onChange: (value: string) => void
  error?: string
  /** Id of the element the error is in, for aria-describedby. */
  errorId: string
}

/**
 * A day and a half-hour time in New York, written as 'MM/DD/YYYY HH:mm'. The days offered run
 * from one to seven months ahead; the viewer's own time shows when their zone differs.
 */
export function SchedulePicker({ value, onChange, error, errorId }: SchedulePickerProps) {
  const id = useId()
  const initial = clubDateTimeParts(value)
  const [day, setDay] = useState(initial?.day ?? '')
  const [time, setTime] = useState(initial?.time ?? PROPOSAL_DEFAULT_TIME)
  const range = proposalDayRange(new Date())
  const times = halfHoursOn(day)
  const chosen = parseClubDateTime(value)
  const local = chosen ? localTimeOf(chosen) : null
  const hintId = `${id}-hint`

  function update(nextDay: string, nextTime: string) {
    setDay(nextDay)
    setTime(nextTime)
    const usDay = clubDateOf(nextDay)
    onChange(usDay ? `${usDay} ${nextTime}` : '')
  }

  const describedBy = cn(hintId, error && errorId)
  return (
    <fieldset className="grid gap-3">
      <legend className="mb-2 font-mono text-sm">date and time ({CLUB_TIME_ABBREVIATION})</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-2">
          <Label htmlFor={`${id}-day`}>date</Label>
          <Input
            id={`${id}-day`}
            type="date"
            min={range.first}
            max={range.last}
            value={day}
            onChange={(e) => update(e.target.value, time)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </div>
        <div className="grid gap-2">
          <Label htmlFor={`${id}-time`}>time ({CLUB_TIME_ABBREVIATION})</Label>
          <select
            id={`${id}-time`}
            value={times.includes(time) ? time : ''}
            onChange={(e) => update(day, e.target.value)}
            aria-describedby={describedBy}
            className="h-10 w-full rounded-sm border border-line bg-paper-raised px-3 text-base sm:text-sm"
          >
            {times.includes(time) ? null : <option value="">choose a time</option>}
            {times.map((t) => (
              <option key={t} value={t}>
                {timeLabel(t)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p id={hintId} className="text-sm text-ink-muted">
        must be at least one month from today; all times are in {CLUB_TIME_NAME}.
        {local ? <span className="block">your time: {local}</span> : null}
      </p>
    </fieldset>
  )
}
