import type { ControlPanel } from '#contract/control-panel'
import { Avatar } from '#client/components/ui/avatar'

export function NewUsersList({ users }: { users: ControlPanel['users_this_month'] }) {
  if (users.length === 0) {
    return <p className="text-sm text-ink-muted">No new members this month yet.</p>
  }
  return (
    <ul aria-label="New users this month" className="grid gap-3 sm:grid-cols-2">
      {users.map((user) => (
        <li key={user.username} className="flex min-w-0 items-center gap-3">
          <Avatar name={user.username} />
          <div className="grid min-w-0">
            <span className="font-mono text-sm">{user.username}</span>
            <span className="text-sm text-ink-muted">{user.email}</span>
          </div>
        </li>
      ))}
    </ul>
  )
}
