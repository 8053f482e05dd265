import { type ClassValue, clsx } from 'clsx'
import { twMerge } from 'tailwind-merge'

/** Joins class names and lets later Tailwind utilities override earlier ones (shadcn/ui `cn`). */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs))
}

/**
 * Initials for an avatar: the first letters of the first and last words of a name,
 * upper-cased, or "U" when there is no name (spec §2 Header).
 */
export function initialsOf(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean)
  const first = words[0]
  if (!first) return 'U'
  const last = words.length > 1 ? words[words.length - 1] : undefined
  return `${first[0] ?? ''}${last?.[0] ?? ''}`.toUpperCase() || 'U'
}
