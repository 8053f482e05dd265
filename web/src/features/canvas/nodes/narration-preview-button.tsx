import { PlayIcon, SquareIcon } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { toast } from '@/hooks/use-toast'
import { errorMessage } from '@/lib/api-client'
import { fetchNarrationPreview } from '../api/ai-api'
import { useProjectId } from '../hooks/use-generation'

/** The last preview: the narration it speaks and its audio (an object URL). */
interface Preview {
  narration: string
  url: string
}

/**
 * A scene's play button (issue 13 item 5): speaks the scene's narration as the video will
 * (the server's speech provider, free), and stops it on a second press. The audio of the
 * current narration is kept while the node lives, so playing it again costs nothing; an edit
 * makes the next press fetch the new words. Disabled while the narration is empty.
 */
export function NarrationPreviewButton({
  nodeId,
  narration,
}: {
  nodeId: string
  narration: string
}) {
  const projectId = useProjectId()
  const [state, setState] = useState<'idle' | 'loading' | 'playing'>('idle')
  const preview = useRef<Preview | null>(null)
  const audio = useRef<HTMLAudioElement | null>(null)
  const request = useRef<AbortController | null>(null)

  useEffect(
    () => () => {
      request.current?.abort()
      audio.current?.pause()
      if (preview.current) URL.revokeObjectURL(preview.current.url)
    },
    [],
  )

  const stop = () => {
    request.current?.abort()
    audio.current?.pause()
    setState('idle')
  }

  const play = async () => {
    if (projectId === null) return
    const text = narration.trim()
    let url = preview.current?.narration === text ? preview.current.url : null
    if (!url) {
      const controller = new AbortController()
      request.current = controller
      setState('loading')
      try {
        const blob = await fetchNarrationPreview({ projectId, nodeId }, controller.signal)
        if (preview.current) URL.revokeObjectURL(preview.current.url)
        url = URL.createObjectURL(blob)
        preview.current = { narration: text, url }
      } catch (error) {
        if (controller.signal.aborted) return
        console.error('narration preview failed', error)
        toast({
          title: 'Could not play the narration',
          description: errorMessage(error),
          variant: 'destructive',
        })
        setState('idle')
        return
      }
    }
    const player = new Audio(url)
    audio.current?.pause()
    audio.current = player
    player.onended = () => setState('idle')
    setState('playing')
    await player.play().catch((error: unknown) => {
      console.error('narration playback failed', error)
      setState('idle')
    })
  }

  const empty = narration.trim() === ''
  // Named without the word "narration", which labels the scene's text field.
  const label = state === 'idle' ? 'Play scene' : 'Stop scene'
  return (
    <Button
      type="button"
      size="sm"
      variant="outline"
      className="nodrag"
      disabled={empty && state === 'idle'}
      aria-label={label}
      aria-busy={state === 'loading' || undefined}
      title={empty ? 'Write a narration to hear it' : `${label}: hear its narration`}
      onClick={() => (state === 'idle' ? void play() : stop())}
    >
      {state === 'loading' ? (
        <Spinner />
      ) : state === 'playing' ? (
        <SquareIcon aria-hidden />
      ) : (
        <PlayIcon aria-hidden />
      )}
      {state === 'idle' ? 'Play' : 'Stop'}
    </Button>
  )
}
