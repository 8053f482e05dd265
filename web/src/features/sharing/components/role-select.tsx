import { PROJECT_ROLE_LABELS } from '@reelgraph/shared'
import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'
import { ASSIGNABLE_ROLES } from '../lib/sharing'

/**
 * A native select of the roles an owner can give (Can edit, Can view), values `editor` and
 * `viewer`. Label it with `aria-label` or a bound `<label>` (through `FormField`).
 */
export function RoleSelect({ className, ...props }: ComponentProps<'select'>) {
  return (
    <select
      className={cn(
        'h-9 rounded-md border border-input bg-background px-2 text-sm shadow-xs outline-none transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive',
        className,
      )}
      {...props}
    >
      {ASSIGNABLE_ROLES.map((role) => (
        <option key={role} value={role}>
          {PROJECT_ROLE_LABELS[role]}
        </option>
      ))}
    </select>
  )
}
