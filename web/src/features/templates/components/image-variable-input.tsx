import { ImageUpIcon, XIcon } from 'lucide-react'
import { type ComponentProps, useRef, useState } from 'react'
import { Button } from '@/components/ui/button'
import { Spinner } from '@/components/ui/spinner'
import { readImageValue, TEMPLATE_IMAGE_TYPES } from '../lib/image-value'

/** Props of {@link ImageVariableInput}. */
export interface ImageVariableInputProps extends Pick<
  ComponentProps<'button'>,
  'id' | 'aria-invalid' | 'aria-describedby'
> {
  /** The variable's label ("Product picture"), for the button's and thumbnail's names. */
  label: string
  /** The chosen picture as a `data:` URL, or ''. */
  value: string
  onChange: (value: string) => void
  /** A chosen file that cannot be used: why, in words. */
  onProblem: (message: string | null) => void
  disabled?: boolean
}

/**
 * An image variable's field (issue 42 item 2): "Choose a picture…" opens the file picker
 * (PNG, JPEG or WebP; the input itself is hidden, the button is what keyboards reach), the
 * file is checked against the size limit and read as a `data:` URL, then shown as a
 * thumbnail with Remove. `id` and the aria props go to the button, so a `FormField` labels it.
 */
export function ImageVariableInput({
  label,
  value,
  onChange,
  onProblem,
  disabled,
  ...aria
}: ImageVariableInputProps) {
  const input = useRef<HTMLInputElement>(null)
  const [reading, setReading] = useState(false)
  const choose = async (file: File | undefined) => {
    if (!file) return
    setReading(true)
    try {
      onChange(await readImageValue(file))
      onProblem(null)
    } catch (error) {
      onProblem(error instanceof Error ? error.message : 'This picture could not be read.')
    } finally {
      setReading(false)
    }
  }
  return (
    <div className="flex items-center gap-3">
      {value ? (
        <img
          src={value}
          alt={`${label}: the chosen picture`}
          className="size-16 shrink-0 rounded-md border object-cover"
        />
      ) : null}
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={disabled || reading}
        aria-busy={reading || undefined}
        onClick={() => input.current?.click()}
        {...aria}
      >
        {reading ? <Spinner /> : <ImageUpIcon aria-hidden />}
        {reading ? 'Reading...' : value ? 'Choose another picture…' : 'Choose a picture…'}
      </Button>
      {value ? (
        <Button
          type="button"
          variant="ghost"
          size="sm"
          disabled={disabled}
          aria-label={`Remove ${label}`}
          onClick={() => onChange('')}
        >
          <XIcon aria-hidden />
          Remove
        </Button>
      ) : null}
      <input
        ref={input}
        type="file"
        accept={TEMPLATE_IMAGE_TYPES.join(',')}
        className="hidden"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.currentTarget.files?.[0]
          event.currentTarget.value = ''
          void choose(file)
        }}
      />
    </div>
  )
}
