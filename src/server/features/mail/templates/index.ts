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
export { welcomeMail } from './welcome'
