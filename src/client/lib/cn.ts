import { clsx, type ClassValue } from 'clsx'
import { twMerge } from 'tailwind-merge'

/**
 * Joins class names; when two Tailwind utilities set the same thing (`px-4` then `px-2`), the
 * later one wins, so a `className` passed to a primitive overrides its defaults.
 */
export function cn(...inputs: ClassValue[]) {
  return twMerge(clsx(inputs))
}
