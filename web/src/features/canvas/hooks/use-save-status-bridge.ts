import { useEffect } from 'react'
import { useSaveStatusStore } from '@/stores/save-status'
import { useSessionStatus } from './use-session-status'

/**
 * Feeds the header's save-status pill from the open project once it is loaded, and puts it
 * back to Saved when the editor closes. While changes are Unsaved (or Not saved: the server
 * is out of reach) and the browser is online, leaving the page asks first (offline, they
 * are safe on the device and sync on the next visit).
 * @see spec §4 Save status, ARCHITECTURE decision 6, issue 11
 */
export function useSaveStatusBridge(): void {
  const { saveStatus: status, ready } = useSessionStatus()
  // Until the device copy is read, nothing is known: the pill keeps its resting Saved.
  const saveStatus = ready ? status : 'saved'
  const setStatus = useSaveStatusStore((s) => s.setStatus)

  useEffect(() => {
    setStatus(saveStatus)
  }, [saveStatus, setStatus])

  useEffect(() => () => setStatus('saved'), [setStatus])

  useEffect(() => {
    if (saveStatus !== 'unsaved' && saveStatus !== 'unreachable') return
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
