/** `tx import --review`: the flags it cannot go with, and what its summary says of the pending batch. */
import { AppError } from '../../src/kernel/errors.js'

/** --review stages rows on the service: a dry run writes nothing, --atomic and --single decide how rows are created. */
export function refuseWithReview(o: { review?: boolean; dryRun?: boolean; atomic?: boolean; single?: boolean }): void {
  if (!o.review) return
  const other = o.dryRun ? '--dry-run' : o.atomic ? '--atomic' : o.single ? '--single' : undefined
  if (other)
    throw new AppError(
      'usage',
      `--review cannot go with ${other}: --review creates nothing, it keeps the rows pending for finctl imports apply`,
    )
}

/** The lines after a review's summary: the batch, what apply would do, and until when. */
export function reviewNotes(
  batch: string,
  review: { pending: number; pending_total: string; expires_at: string },
  total: string,
): string[] {
  const rows = review.pending === 1 ? '1 row' : `${review.pending.toLocaleString('en-US')} rows`
  return [
    `review: nothing was created; import batch ${batch} is pending until ${review.expires_at.slice(0, 16).replace('T', ' ')} UTC`,
    `finctl imports apply ${batch} would create ${rows} (total ${total}), fewer if some are imported meanwhile`,
    `see them with finctl imports show ${batch}, change one with finctl imports set ${batch} --line N, drop them with finctl imports discard ${batch}`,
  ]
}
