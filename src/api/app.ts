/**
 * The HTTP app: one instance serves `finctl serve` (on a socket) and the embedded transport
 * (`app.fetch` in-process). Both go through the same middleware, so they behave the same.
 */
import { requireJwtScope } from '../domain/api-keys.js'
import { AppError } from '../domain/errors.js'
import type { AppDeps } from './env.js'
import { errorResponse, onError } from './errors.js'
import { accessLog } from './middleware/access-log.js'
import { authenticate } from './middleware/auth.js'
import { bodyGuard } from './middleware/body-guard.js'
import { rateLimit } from './middleware/rate-limit.js'
import { requestId } from './middleware/request-id.js'
import { requireScopes } from './middleware/scopes.js'
import { recordUsage } from './middleware/usage.js'
import { router } from './openapi.js'
import { apiKeyRoutes } from './routes/api-keys.js'
import { authRoutes } from './routes/auth.js'
import { bankAccountRoutes } from './routes/bank-accounts.js'
import { categoryRoutes } from './routes/categories.js'
import { categorizationRoutes } from './routes/categorization.js'
import { categorizationRuleRoutes } from './routes/categorization-rules.js'
import { companyRoutes } from './routes/company.js'
import { reportRoutes } from './routes/reports.js'
import { statementRoutes } from './routes/statements.js'
import { systemRoutes } from './routes/system.js'
import { transactionRoutes } from './routes/transactions.js'

export function createApp(deps: AppDeps) {
  const app = router()
  app.use('*', requestId)
  if (deps.log) app.use('*', accessLog(deps.log))
  // Order matters: usage records every key-authenticated answer, 429 and bad bodies included;
  // a refused request (429) never reads its body. ('/api-keys/*' also matches '/api-keys'.)
  for (const prefix of ['/api-v1/*', '/api-keys/*']) {
    app.use(prefix, authenticate(deps), recordUsage(deps), rateLimit(deps), bodyGuard)
  }
  app.use('/api-v1/*', requireScopes)
  // Key administration needs a JWT with api_keys: refuse others (403) before the body is validated,
  // as /api-v1 does, so that an API key never learns more than "forbidden" there.
  app.use('/api-keys/*', async (c, next) => {
    if (!(c.req.method === 'GET' && /^\/api-keys\/me(\/usage)?\/?$/.test(c.req.path))) requireJwtScope(c.get('actor'), 'api_keys')
    await next()
  })
  app.use('/auth/*', bodyGuard)

  app.route('/', systemRoutes(deps))
  app.route('/', authRoutes(deps))
  app.route('/', apiKeyRoutes(deps))
  app.route('/', bankAccountRoutes(deps))
  app.route('/', transactionRoutes(deps))
  app.route('/', companyRoutes(deps))
  app.route('/', categoryRoutes(deps))
  app.route('/', categorizationRoutes(deps))
  app.route('/', categorizationRuleRoutes(deps))
  app.route('/', reportRoutes(deps))
  app.route('/', statementRoutes(deps))

  app.openAPIRegistry.registerComponent('securitySchemes', 'ApiKey', { type: 'apiKey', in: 'header', name: 'X-API-Key' })
  app.openAPIRegistry.registerComponent('securitySchemes', 'Bearer', { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
  app.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'finctl Financial Data Service', version: deps.version },
  })

  app.notFound((c) => errorResponse(c, new AppError('not_found', `no route for ${c.req.method} ${c.req.path}`)))
  app.onError(onError)
  return app
}

export type App = ReturnType<typeof createApp>
