import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Card, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { cn } from '@/lib/utils'

/** A centered card for the checkout result pages. */
export function ResultCard({
  icon: Icon,
  iconClassName,
  title,
  description,
  children,
}: {
  icon: LucideIcon
  iconClassName?: string
  title: string
  description: ReactNode
  /** The action buttons. */
  children?: ReactNode
}) {
  return (
    <div className="flex flex-1 items-center justify-center px-4 py-10">
      <Card className="w-full max-w-lg text-center">
        <CardHeader className="items-center">
          <Icon className={cn('mb-2 size-12', iconClassName)} aria-hidden />
          <CardTitle as="h1" className="text-2xl">
            {title}
          </CardTitle>
          <CardDescription className="text-base">{description}</CardDescription>
        </CardHeader>
        {children ? (
          <CardFooter className="flex-col justify-center gap-2 sm:flex-row">{children}</CardFooter>
        ) : null}
      </Card>
    </div>
  )
}
