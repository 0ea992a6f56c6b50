/** The typed calls of the company and its categories (client.ts: `client.company()`, `client.categories()`). */
import { categoriesPaths, companyPaths } from '../api/paths.js'
import type { categoriesApi } from '../api/routes/categories.js'
import type { companyApi } from '../api/routes/company.js'
import { routeCalls, type Sender } from './route-call.js'

export function companyCalls(c: Sender) {
  const company = routeCalls<typeof companyApi>(c, companyPaths)
  const categories = routeCalls<typeof categoriesApi>(c, categoriesPaths)
  return {
    company: () => company('get').then((r) => r.data),
    categories: () => categories('list').then((r) => r.data),
  }
}
