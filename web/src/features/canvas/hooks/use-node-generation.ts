import type { GenerationAction } from '@reelgraph/shared'
import type { UseMutationResult } from '@tanstack/react-query'
import type { GraphAddition } from '../lib/generation'
import { useCanvasActions } from './use-canvas-actions'
import { type GenerationInfo, useGenerationInfo, useGenerationRun } from './use-generation'

/** Where a generator node stands when its result lands. */
export interface GeneratorPlace {
  id: string
  position: { x: number; y: number }
}

/** A generator node's Generate: what its button shows, and the call. */
export interface NodeGeneration<TOut, TIn> {
  /** The Generate button's cost, provider, busy state and last failure. */
  button: { info: GenerationInfo; busy: boolean; error: string | null }
  /**
   * Sends `request` and adds what `place` makes of the answer, placed from the node where it
   * is now; if it was deleted meanwhile, from where it was when clicked (the result was paid
   * for). Does nothing when the node is already gone, or when the project has no room for
   * another node (issue 11: said before anything is paid for).
   */
  generate: (request: TIn, place: (node: GeneratorPlace, answer: TOut) => GraphAddition) => void
}

/**
 * The Generate wiring every generator node shares (spec §4: one call at a time, results
 * written next to the node in one undoable addition, failures as the spec §8 alert).
 */
export function useNodeGeneration<TOut, TIn>(
  id: string,
  action: GenerationAction,
  mutation: UseMutationResult<TOut, Error, TIn>,
): NodeGeneration<TOut, TIn> {
  const { addGraph, getNode, hasRoomFor } = useCanvasActions()
  const info = useGenerationInfo(action)
  const { run, busy, error } = useGenerationRun(action, mutation)
  const generate: NodeGeneration<TOut, TIn>['generate'] = (request, place) => {
    const clickedAt = getNode(id)?.position
    // A result that still does not fit when it lands is refused then, with the same toast.
    if (!clickedAt || !hasRoomFor(1)) return
    void run(request, (answer) => {
      addGraph(place(getNode(id) ?? { id, position: clickedAt }, answer))
    })
  }
  return { button: { info, busy, error }, generate }
}
