import { describe, expect, it } from 'vitest'
import {
  createPasswordResetBodySchema,
  createWaitlistEntryBodySchema,
  registerFormSchema,
  resetPasswordFormSchema,
} from './accounts'
import { createLoginBodySchema, validateInviteCodeBodySchema } from './auth'
import { createPollInviteBodySchema } from './polls'

/** The messages a schema gives per field, in order. */
function messagesOf(schema: { safeParse: (v: unknown) => unknown }, value: unknown) {
  const result = schema.safeParse(value) as {
    success: boolean
    error?: { issues: { path: PropertyKey[]; message: string }[] }
  }
  if (result.success) return {}
  const out: Record<string, string[]> = {}
  for (const issue of result.error!.issues) (out[String(issue.path[0])] ??= []).push(issue.message)
  return out
}

const validRegister = {
  username: 'ada.lovelace',
  email: 'ada@example.com',
  city: 'Brooklyn',
  source: 'a friend',
  password: 'longenough',
  confirm: 'longenough',
}

describe('spec 2 §5 validation messages', () => {
  it.each([
    [
      'login',
      createLoginBodySchema,
      { username: ' ', password: ' ' },
      { username: ['Username is required'], password: ['Password is required'] },
    ],
    [
      'invite code',
      validateInviteCodeBodySchema,
      { code: '' },
      { code: ['Invite code is required'] },
    ],
    [
      'register: short username',
      registerFormSchema,
      { ...validRegister, username: 'ab' },
      { username: ['Username must be at least 3 characters'] },
    ],
    [
      'register: long username',
      registerFormSchema,
      { ...validRegister, username: 'a'.repeat(25) },
      { username: ['Username must be 24 characters or less'] },
    ],
    [
      'register: username characters',
      registerFormSchema,
      { ...validRegister, username: 'Ada_L' },
      { username: ['Username can only contain lowercase letters, numbers, and periods'] },
    ],
    [
      'register: e-mail',
      registerFormSchema,
      { ...validRegister, email: 'ada@' },
      { email: ['Please enter a valid email address'] },
    ],
    [
      'register: city',
      registerFormSchema,
      { ...validRegister, city: 'X' },
      { city: ['Please enter a valid city'] },
    ],
    [
      'register: source empty',
      registerFormSchema,
      { ...validRegister, source: ' ' },
      { source: ['Please tell us how you found us'] },
    ],
    [
      'register: source long',
      registerFormSchema,
      { ...validRegister, source: 's'.repeat(101) },
      { source: ['Response must be 100 characters or less'] },
    ],
    [
      'register: password',
      registerFormSchema,
      { ...validRegister, password: 'short', confirm: 'short' },
      { password: ['Password must be at least 8 characters'] },
    ],
    [
      'register: confirm',
      registerFormSchema,
      { ...validRegister, confirm: 'different' },
      { confirm: ['Passwords do not match'] },
    ],
    [
      'waitlist',
      createWaitlistEntryBodySchema,
      { email: 'nope' },
      { email: ['Please enter a valid email address'] },
    ],
    [
      'forgot password: empty',
      createPasswordResetBodySchema,
      { email: '' },
      { email: ['Email is required'] },
    ],
    [
      'forgot password: bad',
      createPasswordResetBodySchema,
      { email: 'nope' },
      { email: ['Please enter a valid email address'] },
    ],
    [
      'reset: empty',
      resetPasswordFormSchema,
      { password: '', confirm: '' },
      {
        password: ['Password is required', 'Password must have at least 8 characters'],
        confirm: ['Password confirmation is required'],
      },
    ],
    [
      'reset: short',
      resetPasswordFormSchema,
      { password: 'short', confirm: 'short' },
      { password: ['Password must have at least 8 characters'] },
    ],
    [
      'poll invite',
      createPollInviteBodySchema,
      { email: 'nope' },
      { email: ['Please enter a valid email address'] },
    ],
    [
      'reset: mismatch',
      resetPasswordFormSchema,
      { password: 'longenough', confirm: 'longenougH' },
      { confirm: ['Passwords do not match'] },
    ],
  ])('%s', (_, schema, value, expected) => {
    expect(messagesOf(schema, value)).toEqual(expected)
  })

  it('accepts valid forms', () => {
    expect(messagesOf(registerFormSchema, validRegister)).toEqual({})
    expect(
      messagesOf(resetPasswordFormSchema, { password: 'longenough', confirm: 'longenough' }),
    ).toEqual({})
    expect(messagesOf(createWaitlistEntryBodySchema, { email: 'a@b.co' })).toEqual({})
    expect(messagesOf(createPasswordResetBodySchema, { email: ' a@b.co ' })).toEqual({})
  })
})
