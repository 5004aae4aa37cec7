import { idSchema } from '#contract/common'
import { withMessage } from '#client/components/form/with-message'

/** A podclub's id as an operator types it into a form ('podclub ID'). */
export const podclubIdInput = withMessage(idSchema, 'Enter a podclub ID number')
