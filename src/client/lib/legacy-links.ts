const LEGACY_SIGNUP_HASH = /^#\/signup\/([^/?#]+)\/?$/

/**
 * Invite links from the old hash-routed site look like '/#/signup/CODE'. Returns the path they
 * now mean ('/register/CODE'), or null for any other hash.
 */
export function legacySignupPath(hash: string) {
  const code = LEGACY_SIGNUP_HASH.exec(hash)?.[1]
  return code ? `/register/${code}` : null
}
