import { formatTargetLength, SCRIPT_FORMATS, SCRIPT_STYLES, SCRIPT_TONES } from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { FileTextIcon, FilmIcon } from 'lucide-react'
import { memo, useState } from 'react'
import { Button } from '@/components/ui/button'
import { useAccountSnapshot } from '@/hooks/use-account-snapshot'
import { useAiProviders } from '@/hooks/use-ai-providers'
import { toast } from '@/hooks/use-toast'
import { isApiError } from '@/lib/api-client'
import { useGenerateScript, useMakeVideo, useVideoModels } from '../api/ai-api'
import { useCanEdit } from '../hooks/use-can-edit'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useFitAfterMakeVideo } from '../hooks/use-fit-after-make-video'
import { useProjectId } from '../hooks/use-generation'
import { useNodeData } from '../hooks/use-node-data'
import { useShowsStale } from '../hooks/use-shows-stale'
import { useNodeGeneration } from '../hooks/use-node-generation'
import { buildScriptRequest, generationFailureMessage } from '../lib/generation'
import { isJobActive, jobActionOf } from '../lib/job-state'
import type { ScriptGeneratorNode as ScriptGeneratorFlowNode } from '../lib/node-types'
import { scriptGenerationIssue } from '../lib/validation'
import { GenerateButton } from './generate-button'
import { LengthField } from './length-field'
import { type MakeVideoChoice, MakeVideoDialog } from './make-video-dialog'
import { SelectField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

/**
 * Script generator: topic, style, tone, format (spec §3, §9 Script choices) and length (issue
 * 42 item 1: the video's target length, which the script is written for), and
 * Generate Script, which needs a topic (spec §5); the server's job writes a "Generated
 * Script" text node 350 to the right, connected (spec §4, issue 12), and its state on this
 * node. "Make video" (issue 13 item 6) runs the whole chain from the same topic to a
 * rendered video as one job, its cost shown in a dialog first and its progress here; the
 * dialog can animate each scene with a video model (issue 22 item 4).
 */
export const ScriptGeneratorNode = memo(function ScriptGeneratorNode({
  id,
  selected,
}: NodeProps<ScriptGeneratorFlowNode>) {
  const data = useNodeData(id, 'script-generator')
  const stale = useShowsStale(id)
  const { updateNodeData } = useCanvasActions()
  const { button, generate } = useNodeGeneration(id, 'script', useGenerateScript())
  const makeVideo = useMakeVideo()
  const fitWhenMade = useFitAfterMakeVideo(id)
  const providers = useAiProviders()
  const { credits } = useAccountSnapshot()
  const projectId = useProjectId()
  const canEdit = useCanEdit()
  const [dialogOpen, setDialogOpen] = useState(false)
  // Read once the dialog opens ("Animate each scene with [model]", issue 22 item 4).
  const videoModels = useVideoModels(dialogOpen)
  if (!data) return null
  const issue = scriptGenerationIssue(data)
  const onGenerate = () => {
    if (issue) return
    generate(buildScriptRequest(data))
  }
  const busy = button.busy || makeVideo.isPending
  const onMakeVideo = (choice: MakeVideoChoice) => {
    if (issue || busy || projectId === null) return
    // The node keeps the length the video is made for, and shows it.
    if (choice.targetSeconds !== data.targetSeconds) {
      updateNodeData(id, { targetSeconds: choice.targetSeconds })
    }
    makeVideo.mutate(
      { projectId, nodeId: id, ...choice },
      {
        onSuccess: (accepted) => {
          setDialogOpen(false)
          fitWhenMade(accepted.jobId)
        },
        onError: (error) => {
          if (isApiError(error, 409, 'JOB_CANCELLED')) return
          console.error('make video failed', error)
          toast({ title: generationFailureMessage('video', error), variant: 'destructive' })
        },
      },
    )
  }
  return (
    <NodeShell
      label={data.label}
      icon={FileTextIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      summary={data.topic && `${formatTargetLength(data.targetSeconds)} · ${data.topic}`}
      accent="bg-violet-50 text-violet-900 dark:bg-violet-950 dark:text-violet-100"
    >
      <TextField
        label="Topic"
        value={data.topic}
        placeholder="What is your video about?"
        onChange={(topic) => updateNodeData(id, { topic })}
      />
      <SelectField
        label="Style"
        value={data.style}
        options={SCRIPT_STYLES}
        onChange={(style) => updateNodeData(id, { style })}
      />
      <SelectField
        label="Tone"
        value={data.tone}
        options={SCRIPT_TONES}
        onChange={(tone) => updateNodeData(id, { tone })}
      />
      <SelectField
        label="Format"
        value={data.format}
        options={SCRIPT_FORMATS}
        onChange={(format) => updateNodeData(id, { format })}
      />
      <LengthField
        look="node"
        value={data.targetSeconds}
        disabled={!canEdit}
        onChange={(targetSeconds) => updateNodeData(id, { targetSeconds })}
      />
      <GenerateButton
        stale={stale}
        label="Generate Script"
        issue={issue}
        {...button}
        busy={busy}
        action={jobActionOf(button.job, 'script')}
        onGenerate={onGenerate}
      />
      <Button
        type="button"
        size="sm"
        variant="secondary"
        className="nodrag w-full"
        disabled={issue !== null || busy || isJobActive(button.job) || !canEdit}
        onClick={() => setDialogOpen(true)}
      >
        <FilmIcon aria-hidden />
        Make video
      </Button>
      {dialogOpen ? (
        <MakeVideoDialog
          open
          onOpenChange={setDialogOpen}
          topic={data.topic.trim()}
          targetSeconds={data.targetSeconds}
          costs={providers.data?.costs}
          balance={credits}
          busy={makeVideo.isPending}
          videoModels={videoModels.isError ? [] : videoModels.data?.items}
          onStart={onMakeVideo}
        />
      ) : null}
    </NodeShell>
  )
})
