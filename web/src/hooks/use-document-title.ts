import { useEffect } from 'react'

const APP_NAME = 'Reelgraph'

/** Sets the tab title to "<title> · Reelgraph" (or just the app name) while mounted. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME
  }, [title])
}
