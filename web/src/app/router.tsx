import { INVITATION_PATH } from '@reelgraph/shared'
import { lazy, type ReactNode, Suspense, useEffect, useRef } from 'react'
import { Route, Switch, useLocation } from 'wouter'
import { ApiTokensPage } from '@/features/api-tokens/components/api-tokens-page'
import { AuthPage } from '@/features/auth/components/auth-page'
import { ProtectedRoute } from '@/features/auth/components/protected-route'
import { ResetPasswordPage } from '@/features/auth/components/reset-password-page'
import { VerifyEmailPage } from '@/features/auth/components/verify-email-page'
import { BatchFromTablePanel } from '@/features/batches/components/batch-from-table-panel'
import { BatchPage } from '@/features/batches/components/batch-page'
import { CheckoutPage } from '@/features/billing/components/checkout-page'
import { SubscriptionCancelPage } from '@/features/billing/components/subscription-cancel-page'
import { SubscriptionPage } from '@/features/billing/components/subscription-page'
import { SubscriptionSuccessPage } from '@/features/billing/components/subscription-success-page'
import { PrivacyPage } from '@/features/legal/components/privacy-page'
import { TermsPage } from '@/features/legal/components/terms-page'
import { ProjectsPage } from '@/features/projects/components/projects-page'
import { ShareButton } from '@/features/sharing/components/share-button'
import { NewFromTemplateButton } from '@/features/templates/components/new-from-template-button'
import { SaveAsTemplateButton } from '@/features/templates/components/save-template-button'
import { PageLoader } from '@/components/layout/page-loader'
import { AppLayout } from './app-layout'
import { InviteRoute } from './invite-route'
import { NotFoundPage } from './not-found-page'

/** The editor brings React Flow and Yjs: load it only when / is opened. */
const CanvasPage = lazy(() =>
  import('@/features/canvas/components/canvas-page').then((m) => ({ default: m.CanvasPage })),
)

/**
 * /projects' "New from template" (issue 42 items 2, 3): the templates feature's gallery with the
 * batches feature's "Batch from a table…" panel (features never import each other).
 */
function TemplatesControl() {
  return <NewFromTemplateButton BatchPanel={BatchFromTablePanel} />
}

/** An app page that needs a signed-in user (spec §2: guard, "Loading your account..."). */
function Protected({ children }: { children: ReactNode }) {
  return (
    <ProtectedRoute>
      <AppLayout>{children}</AppLayout>
    </ProtectedRoute>
  )
}

/** New pages start at the top, as they would with full page loads. */
function ScrollToTopOnNavigate() {
  const [location] = useLocation()
  const previous = useRef(location)
  useEffect(() => {
    if (previous.current === location) return
    previous.current = location
    window.scrollTo(0, 0)
  }, [location])
  return null
}

/**
 * The routes of spec §2. /, /projects, /batches/:id (issue 42 item 3) and /checkout are
 * guarded; /subscription is not (anonymous visitors may see it, spec §6); the checkout result
 * pages send anonymous visitors to /auth; everything else is public, the invitation page (/invite, issue 6)
 * included: it reads without an account and leads to /auth and back.
 */
export function AppRouter() {
  return (
    <>
      <ScrollToTopOnNavigate />
      <Switch>
        <Route path="/">
          <Protected>
            <Suspense fallback={<PageLoader label="Loading your canvas..." />}>
              <CanvasPage ShareControl={ShareButton} />
            </Suspense>
          </Protected>
        </Route>
        <Route path="/projects">
          <Protected>
            <ProjectsPage
              TemplatesControl={TemplatesControl}
              SaveAsTemplateControl={SaveAsTemplateButton}
            />
          </Protected>
        </Route>
        <Route path="/batches/:id">
          <Protected>
            <BatchPage />
          </Protected>
        </Route>
        <Route path="/subscription">
          <AppLayout>
            <SubscriptionPage />
          </AppLayout>
        </Route>
        <Route path="/checkout">
          <Protected>
            <CheckoutPage />
          </Protected>
        </Route>
        <Route path="/settings/api-tokens">
          <Protected>
            <ApiTokensPage />
          </Protected>
        </Route>
        <Route path="/subscription/success">
          <Protected>
            <SubscriptionSuccessPage />
          </Protected>
        </Route>
        <Route path="/subscription/cancel">
          <Protected>
            <SubscriptionCancelPage />
          </Protected>
        </Route>
        <Route path="/auth" component={AuthPage} />
        <Route path="/reset-password" component={ResetPasswordPage} />
        <Route path="/verify-email" component={VerifyEmailPage} />
        <Route path={INVITATION_PATH} component={InviteRoute} />
        <Route path="/terms" component={TermsPage} />
        <Route path="/privacy" component={PrivacyPage} />
        <Route component={NotFoundPage} />
      </Switch>
    </>
  )
}
