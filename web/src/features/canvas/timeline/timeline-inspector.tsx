import {
  CAPTION_FONTS,
  CAPTION_POSITIONS,
  CAPTION_STYLES,
  type CaptionStyle,
  type FilmCut,
  type FilmPlan,
  MAX_CARD_TEXT_LENGTH,
  MAX_CUT_MS,
  MAX_TRANSITION_MS,
  type TimelineSettings,
  TRANSITIONS,
  type TransitionType,
  MUSIC_TRACKS,
} from '@reelgraph/shared'
import { ScissorsIcon, Trash2Icon, UndoIcon, UploadIcon } from 'lucide-react'
import { useId, useRef } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs'
import { isApiError } from '@/lib/api-client'
import { useUploadAudio } from '../api/timeline-api'
import { useProjectId } from '../hooks/use-generation'
import { NumberField, SelectField, SliderField, TextField } from '../nodes/node-fields'
import type { TimelineActions } from '../stores/canvas-store'
import { cutLabel } from './timeline-track'
import { framesToMs, lengthText } from './track-layout'

/** The transitions' names. */
export const TRANSITION_LABELS: Record<TransitionType, string> = {
  cut: 'Cut',
  crossfade: 'Crossfade',
  dip: 'Dip to black',
  wipe: 'Wipe',
  slide: 'Slide',
}

/** The caption styles' names (issue 24 item 2). */
export const CAPTION_STYLE_LABELS: Record<CaptionStyle, string> = {
  classic: 'Classic',
  'word-highlight': 'Word highlight',
  bold: 'Bold short-form',
}

/** The builtin music tracks (shared's `MUSIC_TRACKS`) as `builtin:<name>` options. */
export const BUILTIN_MUSIC = MUSIC_TRACKS.map((track) => ({
  value: `builtin:${track}`,
  label: `${track[0]!.toUpperCase()}${track.slice(1).replace(/-/g, ' ')} (builtin)`,
}))

const seconds = (ms: number) => Math.round(ms / 100) / 10

/** A colour picker writing `#rrggbb`. */
function ColorField(props: {
  label: string
  value: string
  onChange: (v: string) => void
  disabled: boolean
}) {
  const id = useId()
  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="color"
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
        className="h-7 w-9 cursor-pointer rounded border bg-background outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed"
      />
      <label htmlFor={id} className="text-muted-foreground text-xs">
        {props.label}
      </label>
    </div>
  )
}

/** A length in seconds (0.1 s steps) written in ms. */
function SecondsField(props: {
  label: string
  ms: number
  max: number
  onCommit: (ms: number) => void
}) {
  return (
    <NumberField
      label={props.label}
      value={seconds(props.ms)}
      min={0}
      max={props.max / 1000}
      step={0.1}
      validate={(v) =>
        Number.isFinite(v) && v >= 0 && v <= props.max / 1000
          ? null
          : `Between 0 and ${props.max / 1000} seconds.`
      }
      onCommit={(v) => props.onCommit(Math.round(v * 1000))}
    />
  )
}

/**
 * The timeline's settings beside the preview (issue 24 items 1 and 2): the selected cut
 * (transition in and its length, split at the playhead, remove, and put back removed cuts),
 * the music (a builtin track or an uploaded file, volume, fades, ducking), the title and end
 * cards, and the caption style. Every change is one document edit with the local origin.
 */
export function TimelineInspector({
  videoId,
  film,
  removed,
  plan,
  settings,
  selected,
  canEdit,
  actions,
  onSplit,
  onRemove,
}: {
  videoId: string
  film: readonly FilmCut[]
  removed: readonly FilmCut[]
  plan: FilmPlan | null
  settings: TimelineSettings
  selected: FilmCut | null
  canEdit: boolean
  actions: TimelineActions
  onSplit: () => void
  onRemove: () => void
}) {
  const set = (patch: Partial<TimelineSettings>) => actions.editSettings(videoId, patch)
  const piece = plan?.pieces.find((p) => p.id === selected?.id)
  return (
    <Tabs defaultValue="cut" className="flex h-full min-h-0 flex-col gap-2">
      <TabsList className="w-full">
        <TabsTrigger value="cut">Cut</TabsTrigger>
        <TabsTrigger value="music">Music</TabsTrigger>
        <TabsTrigger value="cards">Cards</TabsTrigger>
        <TabsTrigger value="captions">Captions</TabsTrigger>
      </TabsList>
      <div className="min-h-0 flex-1 overflow-y-auto pr-1">
        <TabsContent value="cut" className="grid gap-2">
          {selected ? (
            <>
              <p className="font-medium text-sm">
                {cutLabel(selected, film)}
                {piece ? ` · ${lengthText(framesToMs(piece.frames, plan!.fps))}` : ''}
                {selected.scene.clip ? ' · clip' : ' · still'}
              </p>
              <div className="grid grid-cols-2 gap-2">
                <SelectField
                  label="Transition in"
                  value={selected.transition}
                  options={TRANSITIONS.map((t) => ({ value: t, label: TRANSITION_LABELS[t] }))}
                  onChange={(v) =>
                    actions.editCut(videoId, selected, { transition: v as TransitionType })
                  }
                />
                <SecondsField
                  label="Transition (s)"
                  ms={selected.transitionMs}
                  max={MAX_TRANSITION_MS}
                  onCommit={(ms) => actions.editCut(videoId, selected, { transitionMs: ms })}
                />
              </div>
              <div className="flex flex-wrap gap-2">
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={!canEdit}
                  onClick={onSplit}
                >
                  <ScissorsIcon aria-hidden />
                  Split at playhead
                </Button>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={!canEdit}
                  onClick={onRemove}
                >
                  <Trash2Icon aria-hidden />
                  Remove from film
                </Button>
              </div>
              <p className="text-muted-foreground text-xs">
                Drag the cut to move it (Alt+←/→), its edges to trim it. The dashed line is where
                its narration ends: a cut is never shorter.
              </p>
            </>
          ) : (
            <p className="text-muted-foreground text-sm">Select a cut on the track.</p>
          )}
          {removed.length > 0 ? (
            <div role="group" aria-label="Removed cuts" className="grid gap-1 border-t pt-2">
              <p className="font-medium text-xs">Removed from the film</p>
              {removed.map((c) => (
                <Button
                  key={c.id}
                  type="button"
                  size="sm"
                  variant="ghost"
                  className="justify-start"
                  disabled={!canEdit}
                  onClick={() => actions.editCut(videoId, c, { removed: false })}
                >
                  <UndoIcon aria-hidden />
                  Put back Scene {c.scene.sceneNumber}
                </Button>
              ))}
            </div>
          ) : null}
        </TabsContent>

        <TabsContent value="music" className="grid gap-2">
          <MusicPicker settings={settings} canEdit={canEdit} set={set} />
          <SliderField
            label="Music volume (%)"
            value={Math.round(settings.musicVolume * 100)}
            min={0}
            max={100}
            onChange={(v) => set({ musicVolume: v / 100 })}
          />
          <div className="grid grid-cols-3 gap-2">
            <SecondsField
              label="Fade in (s)"
              ms={settings.musicFadeInMs}
              max={MAX_CUT_MS}
              onCommit={(ms) => set({ musicFadeInMs: ms })}
            />
            <SecondsField
              label="Fade out (s)"
              ms={settings.musicFadeOutMs}
              max={MAX_CUT_MS}
              onCommit={(ms) => set({ musicFadeOutMs: ms })}
            />
            <NumberField
              label="Ducking (dB)"
              value={settings.musicDuckDb}
              min={0}
              max={40}
              step={1}
              validate={(v) =>
                Number.isFinite(v) && v >= 0 && v <= 40 ? null : 'Between 0 and 40 dB.'
              }
              onCommit={(v) => set({ musicDuckDb: v })}
            />
          </div>
        </TabsContent>

        <TabsContent value="cards" className="grid gap-3">
          {(['title', 'end'] as const).map((card) => {
            const name = card === 'title' ? 'Title card' : 'End card'
            return (
              <fieldset key={card} className="grid gap-2 rounded-md border p-2">
                <legend className="px-1 font-medium text-xs">{name}</legend>
                <TextField
                  label={`${name} text`}
                  value={card === 'title' ? settings.titleText : settings.endText}
                  onChange={(v) =>
                    set(
                      card === 'title'
                        ? { titleText: v.slice(0, MAX_CARD_TEXT_LENGTH) }
                        : { endText: v.slice(0, MAX_CARD_TEXT_LENGTH) },
                    )
                  }
                />
                <div className="grid grid-cols-3 items-end gap-2">
                  <SecondsField
                    label="Length (s, 0: none)"
                    ms={card === 'title' ? settings.titleMs : settings.endMs}
                    max={MAX_CUT_MS}
                    onCommit={(ms) => set(card === 'title' ? { titleMs: ms } : { endMs: ms })}
                  />
                  <ColorField
                    label="Text"
                    disabled={!canEdit}
                    value={card === 'title' ? settings.titleColor : settings.endColor}
                    onChange={(v) => set(card === 'title' ? { titleColor: v } : { endColor: v })}
                  />
                  <ColorField
                    label="Background"
                    disabled={!canEdit}
                    value={card === 'title' ? settings.titleBackground : settings.endBackground}
                    onChange={(v) =>
                      set(card === 'title' ? { titleBackground: v } : { endBackground: v })
                    }
                  />
                </div>
              </fieldset>
            )
          })}
        </TabsContent>

        <TabsContent value="captions" className="grid gap-2">
          <div className="grid grid-cols-2 gap-2">
            <SelectField
              label="Caption style"
              value={settings.captionStyle}
              options={CAPTION_STYLES.map((s) => ({ value: s, label: CAPTION_STYLE_LABELS[s] }))}
              onChange={(v) => set({ captionStyle: v as CaptionStyle })}
            />
            <SelectField
              label="Font"
              value={settings.captionFont}
              options={CAPTION_FONTS}
              onChange={(v) => set({ captionFont: v as TimelineSettings['captionFont'] })}
            />
            <NumberField
              label="Size (px at 1080p)"
              value={settings.captionSize}
              min={24}
              max={160}
              step={1}
              validate={(v) =>
                Number.isInteger(v) && v >= 24 && v <= 160 ? null : 'A whole number from 24 to 160.'
              }
              onCommit={(v) => set({ captionSize: v })}
            />
            <NumberField
              label="Most words per line"
              value={settings.captionMaxWords}
              min={1}
              max={12}
              step={1}
              validate={(v) =>
                Number.isInteger(v) && v >= 1 && v <= 12 ? null : 'A whole number from 1 to 12.'
              }
              onCommit={(v) => set({ captionMaxWords: v })}
            />
            <SelectField
              label="Position"
              value={settings.captionPosition}
              options={CAPTION_POSITIONS.map((p) => ({
                value: p,
                label: p[0]!.toUpperCase() + p.slice(1),
              }))}
              onChange={(v) => set({ captionPosition: v as TimelineSettings['captionPosition'] })}
            />
          </div>
          <div className="flex gap-4">
            <ColorField
              label="Text colour"
              disabled={!canEdit}
              value={settings.captionColor}
              onChange={(v) => set({ captionColor: v })}
            />
            <ColorField
              label="Spoken word"
              disabled={!canEdit}
              value={settings.captionHighlight}
              onChange={(v) => set({ captionHighlight: v })}
            />
          </div>
          <p className="text-muted-foreground text-xs">
            The preview shows the captions in this style; the render burns them in. SRT and VTT stay
            plain.
          </p>
        </TabsContent>
      </div>
    </Tabs>
  )
}

/**
 * The music choice: none, a builtin track, or "Upload audio…" (`POST /api/assets/audio`:
 * the server refuses a file that is not audio with a 400 whose message shows here).
 */
function MusicPicker({
  settings,
  canEdit,
  set,
}: {
  settings: TimelineSettings
  canEdit: boolean
  set: (patch: Partial<TimelineSettings>) => void
}) {
  const projectId = useProjectId()
  const upload = useUploadAudio()
  const file = useRef<HTMLInputElement>(null)
  const errorId = useId()
  const uploaded = settings.music.startsWith('/api/assets/')
  const options = [
    { value: '', label: 'No music' },
    ...BUILTIN_MUSIC,
    ...(uploaded ? [{ value: settings.music, label: 'Uploaded audio' }] : []),
  ]
  const error = upload.error
    ? isApiError(upload.error)
      ? upload.error.serverMessage
      : upload.error.message
    : null
  return (
    <div className="grid gap-2">
      <SelectField
        label="Music"
        value={settings.music}
        options={options}
        onChange={(v) => set({ music: v })}
      />
      <input
        ref={file}
        type="file"
        accept="audio/*"
        className="sr-only"
        tabIndex={-1}
        aria-label="Audio file"
        onChange={(e) => {
          const chosen = e.target.files?.[0]
          e.target.value = ''
          if (!chosen || projectId === null) return
          upload.mutate(
            { projectId, file: chosen },
            { onSuccess: (answer) => set({ music: answer.url }) },
          )
        }}
      />
      <Button
        type="button"
        size="sm"
        variant="outline"
        className="w-fit"
        disabled={!canEdit || upload.isPending}
        aria-describedby={error ? errorId : undefined}
        onClick={() => file.current?.click()}
      >
        {upload.isPending ? <Spinner /> : <UploadIcon aria-hidden />}
        {upload.isPending ? 'Uploading…' : 'Upload audio…'}
      </Button>
      {error ? (
        <p id={errorId} role="alert" className="text-destructive text-xs">
          {error}
        </p>
      ) : null}
      {settings.music.startsWith('builtin:') ? (
        <p className="text-muted-foreground text-xs">
          A builtin track plays in the render; the preview plays uploaded music.
        </p>
      ) : null}
    </div>
  )
}
