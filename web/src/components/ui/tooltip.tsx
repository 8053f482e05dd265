import { Tooltip as TooltipPrimitive } from 'radix-ui'
import type { ReactElement, ReactNode } from 'react'
import { cn } from '@/lib/utils'

/** Props of {@link Tooltip}. */
export interface TooltipProps {
  /** What the tooltip says. */
  content: ReactNode
  /** The trigger: one focusable element, so keyboard users reach the tooltip too. */
  children: ReactElement
  /** Classes for the bubble (its max width, say). */
  className?: string
}

/**
 * A small dark bubble under its trigger, shown on hover and focus (Radix Tooltip; the
 * provider is in `app/providers.tsx`).
 */
export function Tooltip({ content, children, className }: TooltipProps) {
  return (
    <TooltipPrimitive.Root>
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          side="bottom"
          sideOffset={6}
          className={cn(
            'z-50 rounded-md bg-foreground px-2 py-1 text-background text-xs shadow-md',
            className,
          )}
        >
          {content}
          <TooltipPrimitive.Arrow className="fill-foreground" />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  )
}
