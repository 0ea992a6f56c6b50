/** The typed calls of categorization: the model, its settings, the review queue, suggestions (client.ts: `client.categorization`; docs/categorization.md). */
import { categorizationPaths } from '../api/paths.js'
import type { categorizationApi } from '../api/routes/categorization.js'
import { type RouteInput, routeCalls, type Sender } from './route-call.js'

export function categorizationCalls(c: Sender) {
  const call = routeCalls<typeof categorizationApi>(c, categorizationPaths)
  return {
    model: () => call('model').then((r) => r.data),
    retrain: () => call('retrain').then((r) => r.data),
    settings: (body: RouteInput<typeof categorizationApi.settings>['body']) => call('settings', { body }).then((r) => r.data),
    review: (query: NonNullable<RouteInput<typeof categorizationApi.review>['query']> = {}) => call('review', { query }),
    suggestion: (transactionId: string) => call('suggestion', { params: { transaction_id: transactionId } }).then((r) => r.data),
  }
}
