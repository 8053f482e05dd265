import { useEffect, useState } from 'react'
import { cn } from '@/lib/utils'
import { useNarrationAudio } from '../api/timeline-api'
import type { TimelineNarration } from './use-timeline'
import { peaks } from './waveform'

/** One decoder for the page (decoding needs no sound to play). */
let decoder: AudioContext | null = null

/** The peak levels of a WAV's first channel, `buckets` of them; null until decoded. */
function useWavePeaks(bytes: ArrayBuffer | undefined, buckets: number): number[] | null {
  const [levels, setLevels] = useState<number[] | null>(null)
  useEffect(() => {
    if (!bytes || buckets < 1) return
    let live = true
    decoder ??= new AudioContext()
    decoder
      .decodeAudioData(bytes.slice(0))
      .then((audio) => {
        if (live) setLevels(peaks(audio.getChannelData(0), buckets))
      })
      .catch(() => {})
    return () => {
      live = false
    }
  }, [bytes, buckets])
  return levels
}

/**
 * A narration on the timeline (issue 24 item 1): its waveform from the cached WAV
 * (`GET /api/video/narrations`' `wavUrl`), or, when not spoken yet, a hatched block as long
 * as the documented estimate.
 */
export function NarrationWave({
  narration,
  left,
  width,
  label,
}: {
  narration: TimelineNarration
  left: number
  width: number
  label: string
}) {
  const audio = useNarrationAudio(narration.wavUrl)
  const buckets = Math.max(1, Math.min(400, Math.floor(width / 3)))
  const levels = useWavePeaks(audio.data, buckets)
  return (
    <div
      role="img"
      aria-label={label}
      className={cn(
        'absolute inset-y-1 overflow-hidden rounded-sm bg-sky-100 dark:bg-sky-950',
        narration.estimated &&
          'bg-[repeating-linear-gradient(45deg,transparent,transparent_4px,rgb(14_165_233/0.25)_4px,rgb(14_165_233/0.25)_8px)]',
      )}
      style={{ left, width }}
    >
      {levels ? (
        <svg
          className="h-full w-full text-sky-600"
          viewBox={`0 0 ${levels.length} 2`}
          preserveAspectRatio="none"
          aria-hidden
        >
          {levels.map((v, i) => (
            <rect
              key={i}
              x={i + 0.15}
              width={0.7}
              y={1 - v}
              height={Math.max(0.04, v * 2)}
              fill="currentColor"
            />
          ))}
        </svg>
      ) : null}
    </div>
  )
}
