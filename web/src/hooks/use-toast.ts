import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from '@reelgraph/shared'
import { type ReactNode, useSyncExternalStore } from 'react'
import type { ToastActionElement, ToastProps } from '@/components/ui/toast'

/** A toast as the store keeps it. */
export type ToasterToast = ToastProps & {
  id: string
  title?: ReactNode
  description?: ReactNode
  action?: ToastActionElement
}

/** What callers pass to {@link toast}. */
export type ToastInput = Omit<ToasterToast, 'id'>

type Action =
  | { type: 'ADD_TOAST'; toast: ToasterToast }
  | { type: 'UPDATE_TOAST'; toast: Partial<ToasterToast> & { id: string } }
  | { type: 'DISMISS_TOAST'; toastId?: string }
  | { type: 'REMOVE_TOAST'; toastId?: string }

interface State {
  toasts: ToasterToast[]
}

let count = 0
function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER
  return count.toString()
}

const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>()

// A dismissed toast stays in memory (closed) until the removal delay ends (spec §9 Toasts).
function queueRemoval(toastId: string): void {
  if (removeTimeouts.has(toastId)) return
  const timeout = setTimeout(() => {
    removeTimeouts.delete(toastId)
    dispatch({ type: 'REMOVE_TOAST', toastId })
  }, TOAST_REMOVE_DELAY_MS)
  removeTimeouts.set(toastId, timeout)
}

/** The toast state machine (exported for tests). */
export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'ADD_TOAST':
      // Newest first; the limit of 1 means a new toast replaces the previous (spec §4 Toasts).
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) }
    case 'UPDATE_TOAST':
      return {
        toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)),
      }
    case 'DISMISS_TOAST': {
      const { toastId } = action
      if (toastId) queueRemoval(toastId)
      else for (const t of state.toasts) queueRemoval(t.id)
      return {
        toasts: state.toasts.map((t) =>
          toastId === undefined || t.id === toastId ? { ...t, open: false } : t,
        ),
      }
    }
    case 'REMOVE_TOAST':
      if (action.toastId === undefined) return { toasts: [] }
      return { toasts: state.toasts.filter((t) => t.id !== action.toastId) }
  }
}

const listeners = new Set<(state: State) => void>()
let memoryState: State = { toasts: [] }

function dispatch(action: Action): void {
  memoryState = reducer(memoryState, action)
  for (const listener of listeners) listener(memoryState)
}

/**
 * Shows a toast. At most one is visible; a new one replaces it. It closes after
 * `TOAST_DURATION_MS` (set on the provider), on swipe right, or with its close button.
 * @returns handles to update or dismiss this toast.
 * @see spec §4 Toasts, §9 Toasts
 */
export function toast(input: ToastInput): {
  id: string
  dismiss: () => void
  update: (props: ToastInput) => void
} {
  const id = genId()
  const dismiss = () => dispatch({ type: 'DISMISS_TOAST', toastId: id })
  const update = (props: ToastInput) => dispatch({ type: 'UPDATE_TOAST', toast: { ...props, id } })
  dispatch({
    type: 'ADD_TOAST',
    toast: {
      ...input,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss()
      },
    },
  })
  return { id, dismiss, update }
}

function subscribe(listener: (state: State) => void): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

function getSnapshot(): State {
  return memoryState
}

/** Subscribes to the toast store (shadcn/ui `useToast`). */
export function useToast(): State & {
  toast: typeof toast
  dismiss: (toastId?: string) => void
} {
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot)
  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: 'DISMISS_TOAST', toastId }),
  }
}
