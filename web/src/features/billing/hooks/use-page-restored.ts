import { useEffect, useEffectEvent } from 'react'

/**
 * Runs `onRestored` when the browser brings this page back from its back/forward cache
 * (the person pressed Back on a checkout or portal page). Buttons left busy by the
 * redirect use it to become clickable again.
 */
export function usePageRestored(onRestored: () => void): void {
  const run = useEffectEvent(onRestored)
  useEffect(() => {
    const listener = (event: PageTransitionEvent) => {
      if (event.persisted) run()
    }
    window.addEventListener('pageshow', listener)
    return () => window.removeEventListener('pageshow', listener)
  }, [])
}
