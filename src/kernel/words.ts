/** Small helpers for messages in plain words: a count with its noun in agreement, a name quoted once. */

/** "1 transaction", "3 transactions" (or `many` for an irregular plural: "1 currency", "2 currencies"). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`
}

/** A name in quotes that do not clash with its own: "Coffee", or 'description contains "coffee"'. */
export function quoteName(name: string): string {
  return name.includes('"') && !name.includes("'") ? `'${name}'` : `"${name}"`
}
