import { useState, type ReactNode } from 'react'
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
  /**
   * Opened at once: the person already asked for it before this module arrived. From the
   * keyboard the first item takes focus, as when Radix opens a menu by Enter or an arrow key.
   */
  openedWith?: 'keyboard' | 'pointer'
}

/** The header's drop-down menus (Radix), loaded on first intent so `/` doesn't carry them. */
export default function HeaderMenu({
  trigger,
  triggerClassName,
  entries,
  openedWith,
}: HeaderMenuProps) {
  // Only the first opening, the one asked for before this module arrived, needs help.
  const [pendingFocus, setPendingFocus] = useState(openedWith === 'keyboard')
  const focusFirstItem = (content: HTMLDivElement | null) => {
    if (!content || !pendingFocus) return
    setPendingFocus(false)
    // After Radix has focused the menu itself on opening.
    requestAnimationFrame(() =>
      content.querySelector<HTMLElement>('[role="menuitem"]:not([data-disabled])')?.focus(),
    )
  }
  return (
    <DropdownMenu modal={false} defaultOpen={openedWith !== undefined}>
      <DropdownMenuTrigger className={triggerClassName}>{trigger}</DropdownMenuTrigger>
      <DropdownMenuContent ref={focusFirstItem}>
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
