/**
 * Passwords of database URLs kept out of what finctl prints and logs: `postgres://user:secret@host`
 * becomes `postgres://user:***@host`, and a `password=` query parameter `password=***`.
 */

// The password runs to the last `@` before the host (a raw `@` in a password is common enough).
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/]*:)[^\s/]*@/gi
const QUERY = /([?&]password=)[^&#\s]*/gi

/** `text` with every URL password in it replaced by `***`. */
export function redactPasswords(text: string): string {
  return text.replace(USERINFO, '$1***@').replace(QUERY, '$1***')
}
