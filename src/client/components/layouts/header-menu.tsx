import type { ReactNode } from 'react'
import { Link } from 'react-router'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '#client/components/ui/dropdown-menu'

export type HeaderMenuEntry =
  | { kind: 'link'; to: string; label: string }
  | { kind: 'action'; label: string; onSelect: () => void; disabled?: boolean }
  | { kind: 'separator' }

type HeaderMenuProps = {
  trigger: ReactNode
  triggerClassName: string
  entries: HeaderMenuEntry[]
  /** Opened at once: the person already asked for it before this module arrived. */
  defaultOpen: boolean
}

/** The header's drop-down menus (Radix), loaded on first intent so `/` doesn't carry them. */
export default function HeaderMenu({
  trigger,
  triggerClassName,
  entries,
  defaultOpen,
}: HeaderMenuProps) {
  return (
    <DropdownMenu modal={false} defaultOpen={defaultOpen}>
      <DropdownMenuTrigger className={triggerClassName}>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent>
        {entries.map((entry, i) =>
          entry.kind === 'separator' ? (
            <DropdownMenuSeparator key={i} />
          ) : entry.kind === 'link' ? (
            <DropdownMenuItem key={i} asChild>
              <Link to={entry.to}>{entry.label}</Link>
            </DropdownMenuItem>
          ) : (
            <DropdownMenuItem key={i} disabled={entry.disabled} onSelect={entry.onSelect}>
              {entry.label}
            </DropdownMenuItem>
          ),
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
