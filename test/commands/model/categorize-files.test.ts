/**
 * The CLI in process (test/helpers/in-process-cli.ts) learns categories from an imported file
 * with categories, categorizes a second file without them, lists what needs review (no terminal: a list, never a prompt),
 * reports and sets the model, and evaluates the classifier offline (from the package's data file).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateDataset, type LabelledTransaction } from '../../../src/domain/categorization/dataset.js'
import { ROOT, tsv } from '../../helpers/cli.js'
import { fastKey, InProcessSandbox } from '../../helpers/in-process-cli.js'

const data = generateDataset({ size: 2500, seed: 5, start: '2026-01-01' })

function csv(rows: LabelledTransaction[], withCategory: boolean): string {
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`
  const head = withCategory ? 'Date,Description,Amount,Category' : 'Date,Description,Amount'
  return `${[head, ...rows.map((t) => [t.transaction_date, q(t.description), t.amount, ...(withCategory ? [q(t.category)] : [])].join(','))].join('\n')}\n`
}

interface Tx {
  id: string
  description: string
  category: string | null
  ai_confidence_score: number | null
}

describe('categorization from the CLI', () => {
  let sb: InProcessSandbox
  let account: string

  beforeAll(async () => {
    sb = new InProcessSandbox('categorize')
    await sb.ok(['init', '--company', 'Learning Co', '--currency', 'USD', '--password-stdin', '--no-input'], {
      input: 'password-for-learning\n',
    })
    await fastKey(sb)
    account = (
      await sb.json<{ id: string }>(['accounts', 'create', '--name', 'Operating', '--type', 'checking', '--currency', 'USD', '--json'])
    ).id
    writeFileSync(join(sb.dir, 'labelled.csv'), csv(data.slice(0, 2000), true))
    writeFileSync(join(sb.dir, 'new.csv'), csv(data.slice(2000), false))
  })
  afterAll(() => sb?.cleanup())

  it('imports a file without categories and fills them where the model is confident', async () => {
    await sb.ok(['tx', 'import', sb.path('labelled.csv'), '--account', account, '--map', 'category=Category', '--no-progress'])
    await sb.ok(['tx', 'import', sb.path('new.csv'), '--account', account, '--no-progress'])
    const rows = await sb.json<Tx[]>(['tx', 'list', '--all', '--from', '2026-01-01', '--json'])
    const fresh = rows.filter((t) => t.ai_confidence_score !== null)
    expect(fresh).toHaveLength(500)
    const truth = new Map(data.slice(2000).map((t) => [t.description, t.category]))
    const confident = fresh.filter((t) => t.category !== null)
    expect(confident.length).toBeGreaterThan(100)
    const right = confident.filter((t) => truth.get(t.description) === t.category).length
    expect(right / confident.length).toBeGreaterThanOrEqual(0.9)
  })

  it('tx review without a terminal lists the rows to review with suggestions', async () => {
    const items = await sb.json<Array<{ transaction: Tx; suggestion: { category: string; confidence: number } | null }>>([
      'tx',
      'review',
      '--json',
      '--limit',
      '10',
    ])
    expect(items).toHaveLength(10)
    for (const i of items) {
      expect(i.transaction.category).toBeNull()
      expect(i.suggestion?.confidence).toBeLessThan(0.9)
    }
    const table = await sb.ok(['tx', 'review', '--limit', '3'])
    const lines = tsv(table.stdout)
    expect(lines[0].map((h) => h.toLowerCase())).toEqual([
      'id',
      'date',
      'amount',
      'description',
      'category',
      'score',
      'suggestion',
      'document',
    ])
    expect(lines).toHaveLength(4)
  })

  it('model status, set and retrain', async () => {
    const s = await sb.json<{ examples: number; labels: number; threshold: number }>(['model', 'status', '--json'])
    expect(s.examples).toBe(2000)
    expect(s.labels).toBe(new Set(data.slice(0, 2000).map((t) => t.category)).size)
    const bad = await sb.run(['model', 'set', '--threshold', '1.5'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--threshold')
    expect(await sb.json(['model', 'set', '--threshold', '0.95', '--json'])).toMatchObject({ threshold: 0.95, auto_categorize: true })
    const r = await sb.run(['model', 'retrain'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stderr).toContain('retrained on 2000 labelled transactions')
  })

  it('model evaluate reports accuracy, coverage and calibration on held-out rows, offline', async () => {
    const r = await sb.json<{ accuracy: number; coverage: number; precision_at_threshold: number; test: number; calibration: unknown[] }>([
      'model',
      'evaluate',
      '--size',
      '3000',
      '--seed',
      '3',
      '--json',
    ])
    expect(r.test).toBe(600)
    expect(r.accuracy).toBeGreaterThan(0.7)
    expect(r.coverage).toBeGreaterThan(0)
    expect(r.precision_at_threshold).toBeGreaterThanOrEqual(0.9)
    expect(r.calibration.length).toBeGreaterThan(0)
  })

  it('the world model evaluate generates from is a data file the package ships, not part of the bundle', () => {
    const world = 'data/categorize-eval-world.json'
    expect(existsSync(join(ROOT, world))).toBe(true)
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }
    expect(pkg.files.some((f) => world === f || world.startsWith(`${f.replace(/\/$/, '')}/`))).toBe(true)
    // A merchant's bank text that only the data file holds.
    const bundled = readdirSync(join(ROOT, 'dist'), { recursive: true, encoding: 'utf8' }).filter((f) => /\.c?js$/.test(f))
    expect(bundled.length).toBeGreaterThan(0)
    for (const f of bundled) expect(readFileSync(join(ROOT, 'dist', f), 'utf8'), f).not.toContain('SLACK TECHNOLOGIES')
  })
})
