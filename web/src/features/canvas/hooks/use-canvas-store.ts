import { useContext } from 'react'
import { useStore } from 'zustand'
import type { CanvasState, CanvasStore } from '../stores/canvas-store'
import { CanvasStoreContext } from '../stores/canvas-store-context'

/** The open project's canvas store itself (for reading state inside callbacks). */
export function useCanvasStoreApi(): CanvasStore {
  const store = useContext(CanvasStoreContext)
  if (!store) throw new Error('useCanvasStore needs a CanvasStoreContext provider')
  return store
}

/** A slice of the open project's canvas state; re-renders when the slice changes. */
export function useCanvasStore<T>(selector: (state: CanvasState) => T): T {
  return useStore(useCanvasStoreApi(), selector)
}
