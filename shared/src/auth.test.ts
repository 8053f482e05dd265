import { describe, expect, it } from 'vitest'
import {
  AUTH_MESSAGES,
  loginInput,
  passwordResetRequestInput,
  registerForm,
  registerInput,
  resetPasswordForm,
} from './auth.ts'
import { formatHttpError } from './errors.ts'

/** The first message zod gives for `path`, or undefined when that field is valid. */
function messageAt(
  result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
  path: string,
) {
  return result.error?.issues.find((i) => i.path.join('.') === path)?.message
}

const validRegistration = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'analytical engine',
  confirmPassword: 'analytical engine',
  termsAgreed: true,
}

describe('spec §5 Login', () => {
  it('needs an email matching an email pattern', () => {
    for (const email of ['', 'ada', 'ada@', '@example.com', 'ada example.com']) {
      expect(messageAt(loginInput.safeParse({ email, password: 'x' }), 'email')).toBe(
        'Please enter a valid email address',
      )
    }
    expect(loginInput.safeParse({ email: 'ada@example.com', password: 'x' }).success).toBe(true)
  })

  it('needs a non-empty password', () => {
    expect(
      messageAt(loginInput.safeParse({ email: 'ada@example.com', password: '' }), 'password'),
    ).toBe('Password is required')
    expect(messageAt(loginInput.safeParse({ email: 'ada@example.com' }), 'password')).toBe(
      'Password is required',
    )
  })

  it('trims the email', () => {
    expect(loginInput.parse({ email: '  ada@example.com ', password: 'x' }).email).toBe(
      'ada@example.com',
    )
  })
})

describe('spec §5 Register (form as used)', () => {
  it('accepts a valid form', () => {
    expect(registerForm.safeParse(validRegistration).success).toBe(true)
  })

  it.each([
    ['name', { name: '' }, 'Name is required'],
    ['name', { name: '   ' }, 'Name is required'],
    ['email', { email: 'nope' }, 'Please enter a valid email address'],
    [
      'password',
      { password: 'seven77', confirmPassword: 'seven77' },
      'Password must be at least 8 characters',
    ],
    ['confirmPassword', { confirmPassword: '' }, 'Please confirm your password'],
    ['termsAgreed', { termsAgreed: false }, 'You must agree to the Terms and Privacy Policy'],
    ['confirmPassword', { confirmPassword: 'analytical engines' }, 'Passwords do not match'],
  ])('%s: %j gives "%s"', (path, change, message) => {
    expect(messageAt(registerForm.safeParse({ ...validRegistration, ...change }), path)).toBe(
      message,
    )
  })

  it('accepts exactly 8 characters and refuses 129 (ARCHITECTURE decision 3)', () => {
    const eight = 'abcdefgh'
    expect(
      registerInput.safeParse({ name: 'A', email: 'a@example.com', password: eight }).success,
    ).toBe(true)
    const long = 'a'.repeat(129)
    expect(
      messageAt(
        registerInput.safeParse({ name: 'A', email: 'a@example.com', password: long }),
        'password',
      ),
    ).toBe(AUTH_MESSAGES.passwordTooLong)
  })

  it('has no composition rules: letters only are fine', () => {
    expect(
      registerInput.safeParse({ name: 'A', email: 'a@example.com', password: 'onlyletters' })
        .success,
    ).toBe(true)
  })

  it('sends only name, email and password', () => {
    const payload = registerInput.parse(validRegistration)
    expect(Object.keys(payload).sort()).toEqual(['email', 'name', 'password'])
  })
})

describe('spec §5 Password reset', () => {
  it('needs a valid email', () => {
    expect(messageAt(passwordResetRequestInput.safeParse({ email: 'x' }), 'email')).toBe(
      'Please enter a valid email address',
    )
    expect(passwordResetRequestInput.safeParse({ email: 'ada@example.com' }).success).toBe(true)
  })

  it('the new-password form needs matching passwords of 8 or more characters', () => {
    expect(
      messageAt(
        resetPasswordForm.safeParse({ password: 'short', confirmPassword: 'short' }),
        'password',
      ),
    ).toBe('Password must be at least 8 characters')
    expect(
      messageAt(
        resetPasswordForm.safeParse({ password: 'long enough', confirmPassword: 'long enoug' }),
        'confirmPassword',
      ),
    ).toBe('Passwords do not match')
  })
})

describe('spec §8 Generic error message', () => {
  it('is "<status>: <body text>"', () => {
    expect(formatHttpError(401, '{"error":"x"}', 'Unauthorized')).toBe('401: {"error":"x"}')
  })
  it('falls back to the status text when the body is empty', () => {
    expect(formatHttpError(502, '', 'Bad Gateway')).toBe('502: Bad Gateway')
  })
})
