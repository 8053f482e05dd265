import type { ComponentProps } from 'react'
import { Input } from '@/components/ui/input'

/** An email address input: the right keyboard, autofill and placeholder on every auth form. */
export function EmailInput(props: ComponentProps<'input'>) {
  return (
    <Input
      type="email"
      autoComplete="email"
      inputMode="email"
      placeholder="you@example.com"
      {...props}
    />
  )
}
