import type { SVGProps } from 'react'

/**
 * The few icons of the first load (the header, the scroll-to-top button, the spinner), drawn
 * here: the icon library's own runtime would otherwise be part of every first load. Screens
 * loaded later use lucide-react. Same grid and stroke as those: 24 units, 2 wide, round ends.
 */
function ShellIcon({ children, ...props }: SVGProps<SVGSVGElement>) {
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={24}
      height={24}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      {...props}
    >
      {children}
    </svg>
  )
}

export function ChevronDownIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <ShellIcon {...props}>
      <polyline points="6 9 12 15 18 9" />
    </ShellIcon>
  )
}

export function ArrowUpIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <ShellIcon {...props}>
      <line x1="12" y1="19" x2="12" y2="5" />
      <polyline points="5 12 12 5 19 12" />
    </ShellIcon>
  )
}

/** Three quarters of a circle, which the spinner turns. */
export function ArcIcon(props: SVGProps<SVGSVGElement>) {
  return (
    <ShellIcon {...props}>
      <path d="M12 3a9 9 0 1 0 9 9" />
    </ShellIcon>
  )
}
