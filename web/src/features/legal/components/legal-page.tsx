import { ArrowLeftIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'wouter'
import { Logo } from '@/components/layout/logo'
import { Button } from '@/components/ui/button'
import { useDocumentTitle } from '@/hooks/use-document-title'

/** Props of {@link LegalPage}. */
export interface LegalPageProps {
  title: string
  /** When the text last changed, in long US English form. */
  lastUpdated: string
  children: ReactNode
}

function BackToHome() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 self-start">
      <Link href="/">
        <ArrowLeftIcon aria-hidden />
        Back to Home
      </Link>
    </Button>
  )
}

/** The frame of the terms and privacy pages: readable column, "Back to Home" link. */
export function LegalPage({ title, lastUpdated, children }: LegalPageProps) {
  useDocumentTitle(title)
  return (
    <div className="flex flex-1 flex-col">
      <header className="border-b">
        <div className="mx-auto flex h-14 max-w-3xl items-center px-4 sm:px-6">
          <Logo />
        </div>
      </header>
      <main className="mx-auto flex w-full max-w-3xl flex-col gap-8 px-4 py-10 sm:px-6">
        <BackToHome />
        <article className="flex flex-col gap-6 text-[15px] leading-relaxed [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-4 [&_h2]:mt-4 [&_h2]:font-semibold [&_h2]:text-xl [&_h2]:tracking-tight [&_li]:ml-5 [&_li]:list-disc [&_ul]:flex [&_ul]:flex-col [&_ul]:gap-1.5">
          <div className="flex flex-col gap-2">
            <h1 className="font-bold text-3xl tracking-tight sm:text-4xl">{title}</h1>
            <p className="text-muted-foreground text-sm">Last updated {lastUpdated}</p>
          </div>
          {children}
        </article>
      </main>
    </div>
  )
}
