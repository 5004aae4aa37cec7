export {
  CLUB_NAME,
  escapeHtml,
  renderMail,
  type MailBlock,
  type MailLine,
  type RenderedMail,
} from './layout'
export { emailConfirmationMail } from './email-confirmation'
export { PASSWORD_RESET_VALID_MINUTES, passwordResetMail } from './password-reset'
export { signupAttemptMail } from './signup-attempt'
export { welcomeMail } from './welcome'
