import { type MemberRole, PROJECT_ROLE_LABELS } from '@reelgraph/shared'
import type { ComponentProps } from 'react'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select'
import { ASSIGNABLE_ROLES, roleOfValue } from '../lib/sharing'

/** Props of {@link RoleSelect}: the trigger's own props (id, aria-*) plus the value. */
export type RoleSelectProps = Omit<ComponentProps<typeof SelectTrigger>, 'value' | 'onChange'> & {
  value: MemberRole
  onValueChange: (role: MemberRole) => void
  name?: string
}

/**
 * A select of the roles an owner can give (Can edit, Can view; values `editor`, `viewer`),
 * a combobox with a listbox of options. Label it with `aria-label` or a bound `<label>`
 * (`FormField` hands its id to the trigger).
 */
export function RoleSelect({ value, onValueChange, name, disabled, ...trigger }: RoleSelectProps) {
  return (
    <Select
      value={value}
      name={name}
      disabled={disabled}
      onValueChange={(next) => {
        const role = roleOfValue(next)
        if (role) onValueChange(role)
      }}
    >
      <SelectTrigger {...trigger}>
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ASSIGNABLE_ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {PROJECT_ROLE_LABELS[role]}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  )
}
