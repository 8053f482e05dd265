import { LoaderCircleIcon } from 'lucide-react'
import type { ComponentProps } from 'react'
import { cn } from '@/lib/utils'

/** A spinning indicator; decorative, so pair it with visible text. */
export function Spinner({ className, ...props }: ComponentProps<'svg'>) {
  return (
    <LoaderCircleIcon aria-hidden className={cn('size-4 animate-spin', className)} {...props} />
  )
}
