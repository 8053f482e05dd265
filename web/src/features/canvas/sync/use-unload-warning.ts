import { useEffect } from 'react'
import { useSaveStatus } from '@/stores/save-status'

/**
 * While the open project's changes are Unsaved (or Not saved: the server is out of reach;
 * or waiting while the server is busy, issue 23) and the browser is online, leaving the page asks first (offline, they are safe on the
 * device and sync on the next visit). The status itself is the one save-status store, which
 * the project's session writes.
 * @see spec §4 Save status, ARCHITECTURE decision 6, issue 11
 */
export function useUnloadWarning(): void {
  const saveStatus = useSaveStatus()
  useEffect(() => {
    if (saveStatus !== 'unsaved' && saveStatus !== 'unreachable' && saveStatus !== 'busy') return
    const warn = (event: BeforeUnloadEvent) => {
      if (!navigator.onLine) return
      event.preventDefault()
      // Older browsers need returnValue set to show the prompt.
      event.returnValue = ''
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [saveStatus])
}
