import type { LucideIcon } from 'lucide-react'
import { useDocumentTitle } from '@/hooks/use-document-title'

/** Props of {@link PlaceholderPage}. */
export interface PlaceholderPageProps {
  title: string
  /** One honest line about what is coming. */
  message: string
  icon: LucideIcon
}

/** The body of a page whose feature has not landed yet: its title and a one-line note. */
export function PlaceholderPage({ title, message, icon: Icon }: PlaceholderPageProps) {
  useDocumentTitle(title)
  return (
    <div className="mx-auto flex w-full max-w-screen-2xl flex-1 flex-col gap-6 px-4 py-8 sm:px-6">
      <h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
      <div className="flex flex-1 flex-col items-center justify-center gap-3 rounded-xl border border-dashed p-10 text-center">
        <Icon className="size-10 text-muted-foreground" aria-hidden />
        <p className="max-w-md text-muted-foreground">{message}</p>
      </div>
    </div>
  )
}
