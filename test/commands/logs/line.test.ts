/** `finctl logs tail`'s line (commands/logs/tail.ts): an MCP tool's request ends with the tool's name (docs/agents.md). */
import { Chalk } from 'chalk'
import { describe, expect, it } from 'vitest'
import { line } from '../../../commands/logs/tail.js'
import type { RequestLogEntry } from '../../../src/domain/api-keys/request-log.js'

const entry: RequestLogEntry = {
  id: '7',
  request_id: 'req_1',
  created_at: '2026-11-25T16:42:41.511Z',
  method: 'GET',
  path: '/api-v1/transactions',
  endpoint: '/api-v1/transactions',
  status: 200,
  response_time_ms: 4,
  key_id: 'k1',
  key_prefix: 'fds_abcdefgh',
  via: null,
}
const plain = new Chalk({ level: 0 })

describe('logs tail line', () => {
  it('names the MCP tool that made the request, last; a plain request as before', () => {
    expect(line(entry, plain)).toBe('2026-11-25 16:42:41.511 [200] GET    /api-v1/transactions 4ms fds_abcdefgh req_1')
    expect(line({ ...entry, via: 'mcp:search_transactions' }, plain)).toBe(
      '2026-11-25 16:42:41.511 [200] GET    /api-v1/transactions 4ms fds_abcdefgh req_1 mcp:search_transactions',
    )
  })
})
