import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog'
import type { PromptQuestion } from '../stores/canvas-store'

/**
 * Asks before a second scene's visuals replace an image generator's prompt (issue 14 item
 * 6), or a Video Generator's (issue 22): Keep the prompt (the connection stays), or Replace it.
 */
export function ReplacePromptDialog(props: {
  question: PromptQuestion | null
  onAnswer: (replace: boolean) => void
}) {
  const { question } = props
  const video = question?.generatorType === 'video-generator'
  return (
    <AlertDialog open={question !== null} onOpenChange={(open) => !open && props.onAnswer(false)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>
            {video ? 'Replace the clip prompt?' : 'Replace the image prompt?'}
          </AlertDialogTitle>
          <AlertDialogDescription>
            This {video ? 'video generator' : 'image generator'}’s prompt comes from{' '}
            {question?.currentScene}. Use the visual instructions of {question?.newScene} instead?
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel onClick={() => props.onAnswer(false)}>Keep prompt</AlertDialogCancel>
          <AlertDialogAction onClick={() => props.onAnswer(true)}>Replace prompt</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  )
}
