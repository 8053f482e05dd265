import { AppProviders } from './providers'
import { AppRouter } from './router'

/** The whole web app. */
export function App() {
  return (
    <AppProviders>
      <AppRouter />
    </AppProviders>
  )
}
