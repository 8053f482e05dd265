import type { GenerateScriptInput } from '@reelgraph/shared'

/**
 * How long a builtin draft is (issue 42 item 1): the draft's sentences are ranked, from the
 * ones a video cannot do without (its opening line and its sign-off) to the ones that only a
 * longer video has time for, and the best-ranked ones that fit the target's narration
 * (shared's `narrationBudget`, each sentence measured by `spokenSeconds`) are kept, in the
 * script's order. Within a section the first sentence goes last, so what remains of a section
 * still reads from its start. A video longer than the format's sections (about 80 seconds)
 * fills more sections (`MORE_SECTIONS`), and past those (about two minutes) goes over
 * the sections once more, a draft that says so.
 */

/** One sentence of a draft, and how readily it goes when the draft is too long. */
export interface DraftSentence {
  text: string
  /** 0: always kept; a higher rank goes before a lower one. */
  rank: number
  /** A shorter way to say it, used when the sentence itself does not fit (rank 0: at first). */
  shorter?: string | undefined
}

/** A paragraph of a draft: its heading (never narrated) and its sentences, in order. */
export interface DraftParagraph {
  heading: string
  sentences: DraftSentence[]
}

/** What a draft is made of, its wording already chosen and filled with the topic. */
export interface DraftParts {
  /** The hook's first line (kept whatever the length), and a shorter one for tight budgets. */
  opening: { text: string; shorter?: string | undefined }
  /** "In this video, we look at ...": the hook's second line, and a shorter one. */
  intro: { text: string; shorter: string }
  /** The format's sections: heading and sentences. */
  sections: readonly (readonly [string, readonly string[]])[]
  /** The aside, and the section it goes in (after that section's first sentence). */
  aside: { text: string; section: number }
  /** Sections used only by a longer video, after the format's own. */
  more: readonly (readonly [string, readonly string[]])[]
  /** The recap's heading, its summary line and the sign-off (with a shorter sign-off). */
  recap: { heading: string; summary: string; close: string; shorterClose: string }
  /** The line that starts a second pass over the sections ("Let's go over it once more."). */
  again: string
}

/** A short sign-off by style, for a video with no time for a long one. */
export const SHORT_CLOSES: Record<GenerateScriptInput['style'], string> = {
  Professional: 'Thank you for watching.',
  Casual: 'See you in the next one.',
  Friendly: 'Thanks for watching, friend!',
}

/**
 * Further sections by format, for videos longer than the format's own sections fill (about 80
 * seconds; with these, about two minutes). `{a}` is the topic as it reads after "about".
 */
export const MORE_SECTIONS: Record<GenerateScriptInput['format'], [string, string[]][]> = {
  Explainer: [
    [
      'Where it comes from',
      [
        'The story of {a} starts earlier than most people think.',
        'Each step built on what came before it.',
        'Knowing that history makes the present easier to follow.',
      ],
    ],
    [
      'An everyday example',
      [
        'Think of an ordinary day with {a} in mind.',
        'It is often at work quietly in the background.',
        'Once you notice it, you start to see it everywhere.',
      ],
    ],
    [
      'The key terms',
      [
        'A few words come up again and again around {a}.',
        'Each one names a simple idea.',
        'Learn those words, and the explanations stop sounding like jargon.',
      ],
    ],
    [
      'What changes the outcome',
      [
        'Small differences at the start can lead to very different results.',
        'Timing matters, and so does the order of the steps.',
        'That is why two similar cases can end up looking nothing alike.',
      ],
    ],
    [
      'Questions people often ask',
      [
        'A common question about {a} is whether it is hard to get right.',
        'The honest answer is that it depends on the details.',
        'But the core ideas stay the same from one case to the next.',
      ],
    ],
    [
      'Where it is heading',
      [
        'New ideas keep reshaping {a}.',
        'Some of them will last, and some will fade.',
        'Keeping an eye on the basics helps you tell the difference.',
      ],
    ],
    [
      'How to learn more',
      [
        'If you want to go further, start with one question about {a} and follow it.',
        'Look for clear explanations and simple examples.',
        'Then test what you have learned against what you see around you.',
      ],
    ],
  ],
  Tutorial: [
    [
      'Setting a realistic pace',
      [
        'Give yourself enough time for each part of {a}.',
        'Rushing is the most common reason things go wrong.',
        'A steady pace gets you further than a quick start.',
      ],
    ],
    [
      'Checking your progress',
      [
        'After each step, pause and compare the result with your goal.',
        'Note what worked and what did not.',
        'These notes save you time on the next attempt.',
      ],
    ],
    [
      'When something goes wrong',
      [
        'Sooner or later, a step will not go as planned.',
        'Go back to the last point where everything worked.',
        'Change one thing at a time until the problem is gone.',
      ],
    ],
    [
      'Small improvements',
      [
        'Once the basics of {a} work, look for small improvements.',
        'A little polish on each step adds up.',
        'Keep what helps, and drop what does not.',
      ],
    ],
    [
      'Making it a habit',
      [
        'The more often you come back to {a}, the easier it gets.',
        'Repeat the steps until they feel natural.',
        'Soon you will do them without thinking twice.',
      ],
    ],
    [
      'Going further',
      [
        'When you feel ready, try a more ambitious version.',
        'Build on the steps you already know.',
        'Every new attempt teaches you something about {a}.',
      ],
    ],
    [
      'A quick checklist',
      [
        'Before you finish, run through a short checklist.',
        'Is the goal clear, is each step done, and does the result match it?',
        'If the answer is yes, you are done.',
      ],
    ],
  ],
  Story: [
    [
      'The first clue',
      [
        'It started with a detail that nobody had noticed before.',
        'At first, it seemed too small to matter.',
        'But it kept coming back.',
      ],
    ],
    [
      'Doubts',
      [
        'Not everyone believed the new idea would work.',
        'Some said it was too risky, others that it was too slow.',
        'The doubts were loud, and they were not always wrong.',
      ],
    ],
    [
      'A setback',
      [
        'Then something went badly wrong.',
        'Weeks of effort seemed lost overnight.',
        'It would have been easy to give up right there.',
      ],
    ],
    [
      'An unexpected helper',
      [
        'Help came from someone nobody expected.',
        'They looked at {a} from a side no one else had considered.',
        'Together, they found a way through.',
      ],
    ],
    [
      'Trying again',
      [
        'The second attempt was slower and more careful.',
        'Every step was checked twice.',
        'And this time, it held.',
      ],
    ],
    [
      'A quiet stretch',
      [
        'For a while, nothing seemed to happen.',
        'The work went on quietly, day after day.',
        'Small changes added up where nobody could see them.',
      ],
    ],
    [
      'The bigger picture',
      [
        'Slowly, others began to notice.',
        'What started as one small effort was now shared by many.',
        'Even people far away began to hear about {a}.',
      ],
    ],
    [
      'What came next',
      [
        'The story did not end there.',
        'New questions came up, and new people took up the work.',
        'Somewhere, someone is picking up the thread of {a} right now.',
      ],
    ],
    [
      'Looking back',
      [
        'Years later, the people involved still talked about it.',
        'They remembered the doubts, the setback and the help that came.',
        'Most of all, they remembered what the journey through {a} had taught them.',
      ],
    ],
  ],
}

/** Ranks: the format's sections, then `MORE_SECTIONS`, then each pass over them again. */
const RANK = {
  keep: 0,
  firstLines: 1,
  intro: 2,
  secondLines: 3,
  summary: 3,
  rest: 4,
  aside: 5,
  /** A sentence of `MORE_SECTIONS`: this plus its place in its section. */
  more: 10,
  /** A second pass: this plus ten per pass plus its place in its section. */
  again: 20,
} as const
/** At most this many passes over the sections: a ten-minute draft needs three or four. */
const MAX_PASSES = 6
/** Moves of the fit's last step (add a sentence, or change a form): enough to close the gap. */
const FINAL_MOVES = 3

/** Words in `text` (runs of non-space): the simplest measure of a sentence. */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length
}

/** The sections' sentences ranked: first lines before second lines before the rest. */
function rankedSection(
  sentences: readonly string[],
  base: (index: number) => number,
): DraftSentence[] {
  return sentences.map((text, index) => ({ text, rank: base(index) }))
}

/**
 * The draft's paragraphs with every sentence ranked (the ones a long video has time for
 * included): hook, the format's sections (the aside in its place), `more` sections, passes
 * over the sections again, recap.
 */
export function rankedDraft(parts: DraftParts): DraftParagraph[] {
  const core = (index: number) =>
    index === 0 ? RANK.firstLines : index === 1 ? RANK.secondLines : RANK.rest
  const sections = parts.sections.map(([heading, sentences], index) => {
    const ranked = rankedSection(sentences, core)
    if (index === parts.aside.section) {
      ranked.splice(1, 0, { text: parts.aside.text, rank: RANK.aside })
    }
    return { heading, sentences: ranked }
  })
  const more = parts.more.map(([heading, sentences]) => ({
    heading,
    sentences: rankedSection(sentences, (index) => RANK.more + index),
  }))
  const everything = [...parts.sections, ...parts.more].flatMap(([, sentences]) => sentences)
  const passes = Array.from({ length: MAX_PASSES }, (_, pass) => ({
    heading: 'Once more',
    sentences: [parts.again, ...everything].map((text, index) => ({
      text,
      rank: RANK.again + 10 * pass + (index === 0 ? 0 : 1),
    })),
  }))
  return [
    {
      heading: 'Hook',
      sentences: [
        { text: parts.opening.text, rank: RANK.keep, shorter: parts.opening.shorter },
        { text: parts.intro.text, rank: RANK.intro, shorter: parts.intro.shorter },
      ],
    },
    ...sections,
    ...more,
    ...passes,
    {
      heading: parts.recap.heading,
      sentences: [
        { text: parts.recap.summary, rank: RANK.summary },
        { text: parts.recap.close, rank: RANK.keep, shorter: parts.recap.shorterClose },
      ],
    },
  ]
}

/** Which part of a draft a rank belongs to: the format's sections, `MORE_SECTIONS`, a pass. */
function tierOf(rank: number): number {
  if (rank < RANK.more) return 0
  if (rank < RANK.again) return 1
  return 2 + Math.floor((rank - RANK.again) / 10)
}

/**
 * The paragraphs of `draft` whose sentences fit `budget`, each sentence counted by `measure`
 * (words by default; the builtin writer gives seconds and `spokenSeconds`), as script text
 * (`heading\nsentences`), in order; a paragraph left without sentences goes with its heading.
 * Rank-0 sentences are always kept, in their full form when there is room for it, else in
 * their shorter one. Then, best rank first and in order within a rank, each sentence that
 * fits is kept, in its shorter form when only that fits, once the sentences before it in its
 * paragraph that rank as high are kept (a section reads from its start); a later part of the
 * draft (`MORE_SECTIONS`, then each pass) is drawn on only when every sentence before it is
 * kept. Then shortened sentences get their full form back where there is room. Last, up to
 * three moves that each bring the total nearest the budget: a sentence of the last part drawn
 * on (or, after the format's own sections, of `MORE_SECTIONS`) added (it then ends less over
 * than it was under), or a kept one said in its other form.
 */
export function fitDraft(
  draft: readonly DraftParagraph[],
  budget: number,
  measure: (sentence: string) => number = wordCount,
): string[] {
  type Slot = { sentence: DraftSentence; paragraph: number; order: number }
  const slots: Slot[] = draft.flatMap((paragraph, p) =>
    paragraph.sentences.map((sentence, order) => ({ sentence, paragraph: p, order })),
  )
  const priority = [...slots].sort(
    (a, b) => a.sentence.rank - b.sentence.rank || a.paragraph - b.paragraph || a.order - b.order,
  )
  const chosen = new Map<Slot, string>()
  let total = 0
  const use = (slot: Slot, text: string) => {
    const before = chosen.get(slot)
    total += measure(text) - (before === undefined ? 0 : measure(before))
    chosen.set(slot, text)
  }
  const kept = priority.filter((slot) => slot.sentence.rank === RANK.keep)
  for (const slot of kept) use(slot, slot.sentence.shorter ?? slot.sentence.text)
  // A kept sentence's full form comes before any other sentence's first lines.
  for (const slot of kept) {
    const full = slot.sentence.text
    if (total - measure(chosen.get(slot)!) + measure(full) <= budget) use(slot, full)
  }
  // A sentence follows the ones before it in its paragraph that rank as high as it does.
  const follows = (slot: Slot) =>
    slots.every(
      (s) =>
        s.paragraph !== slot.paragraph ||
        s.order >= slot.order ||
        s.sentence.rank > slot.sentence.rank ||
        chosen.has(s),
    )
  let tier = 0
  for (const slot of priority) {
    if (chosen.has(slot)) continue
    if (!follows(slot)) continue
    const slotTier = tierOf(slot.sentence.rank)
    if (slotTier > tier) {
      if (slots.some((s) => tierOf(s.sentence.rank) === tier && !chosen.has(s))) break
      tier = slotTier
    }
    const { text, shorter } = slot.sentence
    if (total + measure(text) <= budget) use(slot, text)
    else if (shorter !== undefined && total + measure(shorter) <= budget) use(slot, shorter)
  }
  for (const slot of priority) {
    const now = chosen.get(slot)
    const full = slot.sentence.text
    if (now === undefined || now === full) continue
    if (total - measure(now) + measure(full) <= budget) use(slot, full)
  }
  // Last, the few moves that bring the total nearest the budget: adding a sentence of the
  // last part drawn on (or of `MORE_SECTIONS` after the format's own; never a new pass), or
  // saying a kept one in its other form.
  for (let move = 0; move < FINAL_MOVES; move++) {
    let best: { slot: Slot; text: string } | null = null
    let bestError = Math.abs(budget - total)
    for (const slot of priority) {
      const now = chosen.get(slot)
      const slotTier = tierOf(slot.sentence.rank)
      const open =
        now === undefined && follows(slot) && (slotTier === tier || (tier === 0 && slotTier === 1))
      if (now === undefined && !open) continue
      const forms = [slot.sentence.text, slot.sentence.shorter].filter(
        (form): form is string => form !== undefined && form !== now,
      )
      for (const text of forms) {
        const error = Math.abs(
          budget - (total - (now === undefined ? 0 : measure(now)) + measure(text)),
        )
        if (error < bestError - 1e-9) {
          best = { slot, text }
          bestError = error
        }
      }
    }
    if (!best) break
    use(best.slot, best.text)
  }

  return draft.flatMap((paragraph, p) => {
    const texts = slots
      .filter((slot) => slot.paragraph === p && chosen.has(slot))
      .map((slot) => chosen.get(slot)!)
    return texts.length > 0 ? [`${paragraph.heading}\n${texts.join(' ')}`] : []
  })
}
