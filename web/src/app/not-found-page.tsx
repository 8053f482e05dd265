import { CircleAlertIcon } from 'lucide-react'
import { Link } from 'wouter'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { useDocumentTitle } from '@/hooks/use-document-title'

/** Any unknown path: "404 Page Not Found" with a hint for developers (spec §2). */
export function NotFoundPage() {
  useDocumentTitle('Page not found')
  return (
    <main className="flex flex-1 items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-md">
        <CardHeader>
          <div className="flex items-center gap-2">
            <CircleAlertIcon className="size-8 text-destructive" aria-hidden />
            <CardTitle as="h1" className="text-2xl">
              404 Page Not Found
            </CardTitle>
          </div>
        </CardHeader>
        <CardContent className="flex flex-col gap-2 text-muted-foreground text-sm">
          <p>The page you asked for does not exist.</p>
          <p>Did you forget to add the page to the router?</p>
        </CardContent>
        <CardFooter>
          <Button asChild variant="outline">
            <Link href="/">Back to Home</Link>
          </Button>
        </CardFooter>
      </Card>
    </main>
  )
}
