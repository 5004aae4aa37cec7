import type { ControlPanel } from '#contract/control-panel'
import { LinkifiedText } from '#client/components/ui/linkified-text'
import {
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableHeader,
  TableRegion,
  TableRow,
} from '#client/components/ui/table'
import { formatListDate } from '../lib/format'

export function WaitlistTable({ entries }: { entries: ControlPanel['waitlist'] }) {
  if (entries.length === 0) return <p className="text-sm text-ink-muted">Nobody is waiting.</p>
  return (
    <TableRegion label="Waitlist" className="max-h-96 overflow-y-auto">
      <Table stack className="md:min-w-[36rem]">
        <TableHeader>
          <TableRow>
            <TableHead>Date</TableHead>
            <TableHead>Email</TableHead>
            <TableHead>How they heard</TableHead>
            <TableHead>Favorite podcast</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {entries.map((entry) => (
            <TableRow key={`${entry.email}-${entry.date_created}`}>
              <TableCell label="Date" className="md:whitespace-nowrap">
                {formatListDate(entry.date_created)}
              </TableCell>
              <TableCell label="Email">{entry.email}</TableCell>
              <TableCell label="How they heard">{entry.how}</TableCell>
              <TableCell label="Favorite podcast">{entry.favorite_podcast}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableRegion>
  )
}

type Note = {
  username: string | null
  podcast_link: string
  text: string
  date_created: string
}

function NotesTable({
  label,
  notes,
  textHeading,
}: {
  label: string
  notes: Note[]
  textHeading: string
}) {
  return (
    <TableRegion label={label} className="max-h-96 overflow-y-auto">
      <Table stack className="md:min-w-[36rem]">
        <TableHeader>
          <TableRow>
            <TableHead>Date</TableHead>
            <TableHead>Member</TableHead>
            <TableHead>Podcast link</TableHead>
            <TableHead>{textHeading}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {notes.map((note, i) => (
            <TableRow key={`${note.date_created}-${i}`}>
              <TableCell label="Date" className="md:whitespace-nowrap">
                {formatListDate(note.date_created)}
              </TableCell>
              <TableCell label="Member">{note.username ?? 'a visitor'}</TableCell>
              <TableCell label="Podcast link" className="md:max-w-56">
                <LinkifiedText text={note.podcast_link} />
              </TableCell>
              <TableCell label={textHeading} className="md:min-w-48">
                <LinkifiedText text={note.text} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableRegion>
  )
}

export function SuggestionsTable({ suggestions }: { suggestions: ControlPanel['suggestions'] }) {
  if (suggestions.length === 0) return <p className="text-sm text-ink-muted">No suggestions yet.</p>
  return (
    <NotesTable
      label="Suggestions"
      textHeading="Reason"
      notes={suggestions.map((s) => ({ ...s, text: s.reason }))}
    />
  )
}

export function FeedbackTable({ feedback }: { feedback: ControlPanel['feedback'] }) {
  if (feedback.length === 0) return <p className="text-sm text-ink-muted">No feedback yet.</p>
  return (
    <NotesTable
      label="Feedback"
      textHeading="Description"
      notes={feedback.map((f) => ({ ...f, text: f.description }))}
    />
  )
}
