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
 * 6): Keep the prompt (the connection stays), or Replace it.
 */
export function ReplacePromptDialog(props: {
  question: PromptQuestion | null
  onAnswer: (replace: boolean) => void
}) {
  const { question } = props
  return (
    <AlertDialog open={question !== null} onOpenChange={(open) => !open && props.onAnswer(false)}>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Replace the image prompt?</AlertDialogTitle>
          <AlertDialogDescription>
            This image generator’s prompt comes from {question?.currentScene}. Use the visual
            instructions of {question?.newScene} instead?
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
