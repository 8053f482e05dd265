/**
 * The narration both media benchmarks use (tts-speed, render-speed): six scenes of a short
 * explainer, about 120 words, some 45 s at narration pace, so their figures describe the
 * same video.
 */
export const EXPLAINER_SCENES: readonly string[] = [
  'Every day, the ocean breathes in and out. Twice a day the water climbs the beach, and twice a day it slips away again.',
  'The reason is the moon. Its gravity pulls on the oceans, raising a bulge of water on the side of the Earth that faces it.',
  'A second bulge forms on the far side, where the Earth itself is pulled away from the water. We pass through both as the planet turns.',
  'The sun pulls too, but less than half as strongly. When sun and moon line up, their pulls add together into spring tides.',
  'When they pull at right angles, the tides are weak. Sailors call these neap tides, and they come a week after the spring tides.',
  'So the next time you watch the sea creep up the sand, remember: you are watching the moon at work.',
]
