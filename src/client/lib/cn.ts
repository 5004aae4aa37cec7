import { clsx, type ClassValue } from 'clsx'

/**
 * Joins class names, leaving out the false and empty ones. It does not resolve conflicts: two
 * utilities that set the same thing (`px-4` and `px-2`) both stay, and the stylesheet's order,
 * not the call's, decides. So a `className` passed to a primitive only adds to its classes;
 * a look that differs from the default is a variant or a prop of the primitive instead.
 */
export function cn(...inputs: ClassValue[]) {
  return clsx(inputs)
}
