import { Spinner } from '@/components/ui/spinner'

/** A full-page busy state with a visible, announced label ("Loading your account...", say). */
export function PageLoader({ label }: { label: string }) {
  return (
    <div className="flex flex-1 items-center justify-center p-8">
      <output className="flex items-center gap-3 text-muted-foreground" aria-live="polite">
        <Spinner className="size-5 text-primary" />
        <span>{label}</span>
      </output>
    </div>
  )
}
