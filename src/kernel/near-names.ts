/** "Did you mean": the names nearest a typo (accounts, profiles, subcommands), as commander does for commands. */

/** Edit distance of two strings, two letters swapped counting as one edit ("monht" is 1 from "month"). */
export function editDistance(a: string, b: string): number {
  let before: number[] = []
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j], before[j - 2] + 1)
    }
    before = prev
    prev = cur
  }
  return prev[b.length]
}

/**
 * The names (at most `max`, nearest first) within a few edits of `typed`, any case: a third of the
 * typed length, at least 1 and at most 3, so that "ofice" finds "office" and "x" finds nothing.
 * A name that starts with what was typed counts as near too ("Chase" → "Chase Checking").
 */
export function nearNames(names: readonly string[], typed: string, max = 3): string[] {
  const t = typed.trim().toLowerCase()
  if (!t) return []
  const limit = Math.min(3, Math.max(1, Math.floor(t.length / 3)))
  return [...new Set(names)]
    .map((name) => {
      const n = name.toLowerCase()
      return { name, d: n.startsWith(t) && t.length >= 3 ? 0.5 : editDistance(n, t) }
    })
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d || a.name.localeCompare(b.name))
    .slice(0, max)
    .map((x) => x.name)
}

/** ` (did you mean "A" or "B"?)`, or '' when no name is near. */
export function didYouMean(names: readonly string[], typed: string): string {
  const near = nearNames(names, typed)
  return near.length ? ` (did you mean ${near.map((n) => `"${n}"`).join(' or ')}?)` : ''
}
