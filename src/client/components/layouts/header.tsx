import { lazy, Suspense, useState, type ReactNode } from 'react'
import { ChevronDownIcon } from '#client/components/ui/shell-icons'
import { Link, NavLink } from 'react-router'
import type { SessionUser } from '#contract/auth'
import { Avatar } from '#client/components/ui/avatar'
import { cn } from '#client/lib/cn'
import type { HeaderMenuEntry } from './header-menu'

const loadHeaderMenu = () => import('./header-menu')
const HeaderMenu = lazy(loadHeaderMenu)

export type HeaderProps = {
  user: SessionUser | null
  onLogout: () => void
  isLoggingOut?: boolean
}

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    'rounded-sm px-2 py-1.5 font-mono text-sm whitespace-nowrap hover:text-accent',
    isActive ? 'text-accent underline underline-offset-4' : 'text-ink',
  )

const triggerClass =
  'inline-flex max-w-full min-w-0 cursor-pointer items-center gap-2 rounded-sm px-2 py-1 font-mono text-sm text-ink hover:bg-accent-soft data-[state=open]:bg-accent-soft'

export function Header({ user, onLogout, isLoggingOut = false }: HeaderProps) {
  return (
    <header className="border-b border-line bg-paper">
      <nav
        aria-label="Main"
        // A member's menu that does not fit beside the brand (a long username, a super user's
        // extra link on a phone) takes a line of its own rather than hiding the name.
        className="mx-auto flex min-h-15 max-w-5xl flex-wrap items-center justify-between gap-x-3 gap-y-2 px-4 py-3"
      >
        {/* Spec 2 §2: the brand goes Home without the splash. */}
        <Link
          to="/home"
          className="rounded-sm font-mono text-lg font-bold tracking-tight text-ink sm:text-xl"
        >
          podclub<span className="text-accent">.</span>
        </Link>
        <div className="ml-auto flex max-w-full min-w-0 items-center gap-1 sm:gap-2">
          {user ? (
            <MemberNav user={user} onLogout={onLogout} isLoggingOut={isLoggingOut} />
          ) : (
            <VisitorNav />
          )}
        </div>
      </nav>
    </header>
  )
}

function MemberNav({
  user,
  onLogout,
  isLoggingOut,
}: Required<HeaderProps> & { user: SessionUser }) {
  return (
    <>
      {user.is_superuser ? (
        <NavLink to="/controlpanel" className={navLinkClass}>
          [ control panel ]
        </NavLink>
      ) : null}
      <Menu
        trigger={
          <>
            <Avatar name={user.username} size="sm" />
            <span className="min-w-0 truncate">{user.username}</span>
            <ChevronDownIcon aria-hidden className="size-4 text-ink-muted" />
          </>
        }
        entries={[
          { kind: 'link', to: '/profile', label: '[ profile ]' },
          { kind: 'link', to: '/qr-invite', label: '[ invite friends ]' },
          { kind: 'separator' },
          { kind: 'action', label: '[ logout ]', onSelect: onLogout, disabled: isLoggingOut },
        ]}
      />
    </>
  )
}

function VisitorNav() {
  return (
    <>
      <div className="hidden items-center gap-1 sm:flex">
        <NavLink to="/login" className={navLinkClass}>
          [ login ]
        </NavLink>
        <NavLink to="/register" className={navLinkClass}>
          [ register ]
        </NavLink>
      </div>
      <div className="sm:hidden">
        <Menu
          trigger="[ menu ]"
          entries={[
            { kind: 'link', to: '/login', label: '[ login ]' },
            { kind: 'link', to: '/register', label: '[ register ]' },
          ]}
        />
      </div>
    </>
  )
}

/**
 * A header menu whose code (Radix's menu and its positioning) arrives on first intent: hovering
 * or focusing the trigger starts loading it, and a click or key press opens it as soon as it is
 * there. Until then the trigger is an ordinary button that looks the same.
 */
function Menu({ trigger, entries }: { trigger: ReactNode; entries: HeaderMenuEntry[] }) {
  const [openedWith, setOpenedWith] = useState<'keyboard' | 'pointer'>()
  const placeholder = (onOpen?: (how: 'keyboard' | 'pointer') => void) => (
    <button
      type="button"
      className={triggerClass}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadHeaderMenu()}
      onFocus={() => void loadHeaderMenu()}
      // A click from Enter or Space has no pointer position: `detail` is 0.
      onClick={(event) => onOpen?.(event.detail === 0 ? 'keyboard' : 'pointer')}
      onKeyDown={(event) => {
        if (onOpen && (event.key === 'ArrowDown' || event.key === 'ArrowUp')) {
          event.preventDefault()
          onOpen('keyboard')
        }
      }}
    >
      {trigger}
    </button>
  )
  if (!openedWith) return placeholder(setOpenedWith)
  return (
    <Suspense fallback={placeholder()}>
      <HeaderMenu
        trigger={trigger}
        triggerClassName={triggerClass}
        entries={entries}
        openedWith={openedWith}
      />
    </Suspense>
  )
}
