import { useEffect } from 'react'
import { toast } from '@/hooks/use-toast'
import { CANVAS_TOASTS } from '../lib/canvas-messages'
import { useCanvasActions } from './use-canvas-actions'
import { useCanvasStoreApi } from './use-canvas-store'

/** True when a key press belongs to a text field, a select, or an open dialog. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target.closest('[role="dialog"], [role="alertdialog"]')) return true
  const tag = target.tagName
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true
  if (tag !== 'INPUT') return false
  const type = (target as HTMLInputElement).type
  return !['checkbox', 'radio', 'range', 'button', 'submit'].includes(type)
}

/**
 * The editor's keyboard shortcuts, beyond React Flow's own (Delete/Backspace deletes the
 * selection, arrows move it): Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z and Ctrl+Y redo,
 * Ctrl/Cmd+C copy and Ctrl/Cmd+V paste of nodes. Inside a text field the browser's own
 * undo, copy and paste apply instead. For a viewer only copy is left (issue 6 item 1).
 */
export function useCanvasShortcuts(): void {
  const actions = useCanvasActions()
  const store = useCanvasStoreApi()
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey) return
      if (!(event.ctrlKey || event.metaKey) || isTypingTarget(event.target)) return
      const key = event.key.toLowerCase()
      if (!store.getState().access.canEdit && key !== 'c') return
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault()
        actions.undo()
      } else if ((key === 'z' && event.shiftKey) || (key === 'y' && event.ctrlKey)) {
        event.preventDefault()
        actions.redo()
      } else if (key === 'c' && !event.shiftKey) {
        // Leave text selected on the page to the browser's copy.
        if (window.getSelection()?.toString()) return
        if (actions.copySelection() > 0) event.preventDefault()
      } else if (key === 'v' && !event.shiftKey) {
        const pasted = actions.paste()
        if (pasted > 0) {
          event.preventDefault()
          toast({
            ...CANVAS_TOASTS.nodeAdded,
            description: pasted === 1 ? '1 node pasted' : `${pasted} nodes pasted`,
          })
        }
      }
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [actions, store])
}
