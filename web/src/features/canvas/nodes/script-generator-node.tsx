import { SCRIPT_FORMATS, SCRIPT_STYLES, SCRIPT_TONES } from '@reelgraph/shared'
import type { NodeProps } from '@xyflow/react'
import { FileTextIcon } from 'lucide-react'
import { memo } from 'react'
import { useGenerateScript } from '@/lib/ai-api'
import { useCanvasActions } from '../hooks/use-canvas-actions'
import { useNodeData } from '../hooks/use-node-data'
import { useNodeGeneration } from '../hooks/use-node-generation'
import { buildScriptRequest } from '../lib/generation'
import type { ScriptGeneratorNode as ScriptGeneratorFlowNode } from '../lib/node-types'
import { scriptGenerationIssue } from '../lib/validation'
import { GenerateButton } from './generate-button'
import { SelectField, TextField } from './node-fields'
import { NodeShell } from './node-shell'

/**
 * Script generator: topic, style, tone and format (spec §3, §9 Script choices), and
 * Generate Script, which needs a topic (spec §5); the server's job writes a "Generated
 * Script" text node 350 to the right, connected (spec §4, issue 12), and its state on this
 * node.
 */
export const ScriptGeneratorNode = memo(function ScriptGeneratorNode({
  id,
  selected,
}: NodeProps<ScriptGeneratorFlowNode>) {
  const data = useNodeData(id, 'script-generator')
  const { updateNodeData } = useCanvasActions()
  const { button, generate } = useNodeGeneration(id, 'script', useGenerateScript())
  if (!data) return null
  const issue = scriptGenerationIssue(data)
  const onGenerate = () => {
    if (issue) return
    generate(buildScriptRequest(data))
  }
  return (
    <NodeShell
      label={data.label}
      icon={FileTextIcon}
      selected={selected}
      connectionPoints={data.connectionPoints}
      summary={data.topic}
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
      <GenerateButton label="Generate Script" issue={issue} {...button} onGenerate={onGenerate} />
    </NodeShell>
  )
})
