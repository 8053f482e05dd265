import {
  type CaptionStyle,
  formatTargetLength,
  type TemplateSettings,
  type TemplateSource,
} from '@reelgraph/shared'

/** Whose a template is, as its badge says it (issue 42 item 2). */
export const TEMPLATE_SOURCE_LABELS: Record<TemplateSource, string> = {
  builtin: 'Builtin',
  yours: 'Yours',
  team: 'Team',
}

/** The gallery's sections, in order, with their headings. */
export const TEMPLATE_SECTIONS: readonly { source: TemplateSource; heading: string }[] = [
  { source: 'builtin', heading: 'Builtin' },
  { source: 'yours', heading: 'Yours' },
  { source: 'team', heading: 'Your team’s' },
]

/** A caption look as the summary names it. */
const CAPTION_WORDS: Record<CaptionStyle, string> = {
  classic: 'Classic captions',
  'word-highlight': 'Word-highlight captions',
  bold: 'Bold captions',
}

/**
 * A template's settings in one line (issue 42 item 2), for its card: the format, the length,
 * the scenes, the caption look, then what sets it apart: "9:16 · 30 s · 3 scenes · Bold
 * captions", "16:9 · 1 min · 4 scenes · Classic captions · Animated · From your picture".
 * Captions left to the timeline are its classic look.
 */
export function templateSettingsSummary(settings: TemplateSettings): string {
  const parts = [
    settings.preset,
    formatTargetLength(settings.targetSeconds),
    `${settings.sceneCount} ${settings.sceneCount === 1 ? 'scene' : 'scenes'}`,
    CAPTION_WORDS[settings.captions?.style ?? 'classic'],
  ]
  if (settings.animateModelId) parts.push('Animated')
  if (settings.sceneImage) parts.push('From your picture')
  if (settings.character) parts.push('Recurring character')
  return parts.join(' · ')
}
