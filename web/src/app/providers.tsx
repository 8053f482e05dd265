import { QueryClientProvider } from '@tanstack/react-query'
import { Tooltip } from 'radix-ui'
import { type ReactNode, useState } from 'react'
import { Toaster } from '@/components/ui/toaster'
import { AuthProvider } from '@/features/auth/components/auth-provider'
import { createQueryClient } from '@/lib/query-client'

/** Server state (TanStack Query), the auth context, tooltips and the toaster. */
export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient)
  return (
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <Tooltip.Provider delayDuration={300}>
          {children}
          <Toaster />
        </Tooltip.Provider>
      </AuthProvider>
    </QueryClientProvider>
  )
}
