/**
 * A deterministic generator of realistic, labelled bank transactions, for evaluating and
 * benchmarking the category model (./model.ts) without real customer data.
 *
 * The world is fixed, and is data: data/categorize-eval-world.json in the package (read when this
 * module loads; only `finctl model evaluate`, the tests and the benchmarks load it, so it is no part
 * of the bundle). About 30 business categories (each mapped to one accounting and one cash-flow
 * category of docs/api.md section 4), several hundred merchants (well-known brands plus a synthesized
 * long tail of restaurants, hotels, law firms, customers, suppliers, employees...), each with a home
 * region (US, DE, FR, ES, NL, UK) that decides the bank's wording. A data set samples rows from that
 * world with a seeded PRNG (mulberry32): same seed, identical rows.
 *
 * Descriptions look like bank statement lines: channel prefixes (`CARD PAYMENT`, `POS`,
 * `VISA DEBIT`, `SEPA-LASTSCHRIFT`, `PRLV SEPA`, `ACH DEBIT`, `DD`...), store numbers, cities,
 * reference numbers, dates, random casing and truncation. `merchant_name` is present on about 60%
 * of the rows. Some merchants legitimately split across categories (AMAZON: office supplies or
 * equipment; UBER: rides or meals; IRS: payroll or income tax...) and a few rows are generic
 * ("PAYMENT", "TRANSFER"), so no model can be right on every row and calibration matters.
 *
 * Amounts are generated as integers of minor units (cents); `amount` is their exact decimal text.
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { ACCOUNTING_CATEGORIES, CASH_FLOW_CATEGORIES } from '../schemas.js'
import { formatMinor } from '../../kernel/money.js'
import { mulberry32 } from '../../kernel/random.js'

export interface LabelledTransaction {
  transaction_date: string
  description: string
  merchant_name: string | null
  /** Decimal string with 2 decimals, negative for money out. */
  amount: string
  amount_minor: number
  category: string
  accounting_category: string
  cash_flow_category: string
}

type Accounting = (typeof ACCOUNTING_CATEGORIES)[number]
type CashFlow = (typeof CASH_FLOW_CATEGORIES)[number]
type Region = 'us' | 'de' | 'fr' | 'es' | 'nl' | 'uk'
type Channel = 'card' | 'debit' | 'transfer' | 'credit' | 'fee'
type Sign = 'out' | 'in' | 'both'
type Localized = Record<Region, string[]>

// ---------------------------------------------------------------------------------------------
// Randomness

type Rng = () => number

const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1))
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]

function pickWeighted<T extends { weight: number }>(rng: Rng, items: readonly T[], total: number): T {
  let r = rng() * total
  for (const item of items) {
    r -= item.weight
    if (r < 0) return item
  }
  return items[items.length - 1]
}

/** A stable 32-bit hash (FNV-1a), for per-merchant constants such as a fixed monthly price. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}

// ---------------------------------------------------------------------------------------------
// The world's data (data/categorize-eval-world.json; its "about" says what each part holds)

interface AmountSpec {
  /** Smallest and largest magnitude, in major units; drawn log-uniformly. */
  min: number
  max: number
  /** Share of rows whose amount is a whole multiple of 100 major units. */
  round?: number
  /** One amount per merchant (rent, loans, subscriptions), kept on most rows. */
  fixed?: boolean
}

interface CategorySpec {
  category: string
  accounting_category: Accounting
  cash_flow_category: CashFlow
  /** Relative share of rows. */
  weight: number
  sign: Sign
  channels: [Channel, number][]
  amount: AmountSpec
  /** Placeholders: {P} channel prefix, {M} merchant text, {C} city, {S} store number, {R} reference,
   *  {D} date, {MON} month, {W} the category's word in the merchant's language, {N4} 4 digits. */
  templates: string[]
  words?: Localized
}

interface Merchant {
  name: string
  region: Region
  bank: string[]
  weight: number
  templates?: string[]
  /** Rows of this merchant that belong to another category instead. */
  alt?: { category: string; share: number; bank?: string[] }[]
}

/** Merchants in their compact form: [name, region, bank texts, alternative categories?]. */
type NamedMerchant = [string, Region | 'intl', string[], Merchant['alt']?]

/** The synthesized long tail of a category's merchants. */
interface TailSpec {
  category: string
  count: number
  /** Share of the category's rows that go to the tail. */
  share: number
  /** A name is one of the region's forms with its placeholders filled (see `fill`)... */
  forms?: Localized
  /** ...or one word from each part, joined by `join` (default a space); a part naming several lists takes one of them at random. */
  parts?: (string | string[])[]
  join?: string
}

interface WorldData {
  /** Home regions of merchants marked `intl`, drawn from this list (a region listed twice is twice as likely). */
  regions: Region[]
  prefixes: Record<Channel, Localized>
  cities: Localized
  months: Localized
  categories: CategorySpec[]
  merchants: Record<string, NamedMerchant[]>
  /** Word lists of the tail's names; a list per region (company suffixes) or one for all. */
  words: Record<string, string[] | Localized>
  tails: TailSpec[]
  /** Descriptions that say nothing about the category, and the categories (with weights) they belong to. */
  generic: { description: string[]; categories: [string, number][] }
}

const WORLD_FILE = 'data/categorize-eval-world.json'

/** The package's copy of the world: a few directories up from this module, in src/ or in dist/ alike. */
function worldFile(): string {
  let dir = new URL('.', import.meta.url)
  for (;;) {
    const file = new URL(WORLD_FILE, dir)
    if (existsSync(file)) return fileURLToPath(file)
    const parent = new URL('..', dir)
    if (parent.href === dir.href)
      throw new Error(
        `${WORLD_FILE} is missing from the finctl package (looked in the directories above ${fileURLToPath(import.meta.url)}); reinstall finctl`,
      )
    dir = parent
  }
}

const DATA = JSON.parse(readFileSync(worldFile(), 'utf8')) as WorldData
const {
  regions: REGIONS,
  prefixes: PREFIXES,
  cities: CITIES,
  months: MONTHS,
  categories: CATEGORY_SPECS,
  merchants: NAMED,
  words: WORDS,
  tails: TAILS,
  generic: GENERIC,
} = DATA

export const CATEGORIES: { category: string; accounting_category: string; cash_flow_category: string }[] = CATEGORY_SPECS.map((c) => ({
  category: c.category,
  accounting_category: c.accounting_category,
  cash_flow_category: c.cash_flow_category,
}))

// ---------------------------------------------------------------------------------------------
// The synthesized long tail

function words(name: string, region: Region): string[] {
  const list = WORDS[name]
  if (list === undefined) throw new Error(`${WORLD_FILE}: no word list ${name}`)
  return Array.isArray(list) ? list : list[region]
}

/** Every placeholder draws a word, used or not, so a form's wording never shifts the draws after it. */
const fill = (rng: Rng, template: string, region: Region) =>
  template
    .replace('{SUR2}', pick(rng, words('surnames', region)))
    .replace('{SUR}', pick(rng, words('surnames', region)))
    .replace('{FIRST}', pick(rng, words('first_names', region)))
    .replace('{PLACE}', pick(rng, words('place_words', region)))
    .replace('{BIZ}', pick(rng, words('business_words', region)))

function tailName(rng: Rng, tail: TailSpec, region: Region): string {
  if (tail.forms) return fill(rng, pick(rng, tail.forms[region]), region)
  return (tail.parts ?? [])
    .map((part) => pick(rng, words(typeof part === 'string' ? part : pick(rng, part), region)))
    .join(tail.join ?? ' ')
}

/** How a synthesized name appears on a bank line: upper case, sometimes with the legal form dropped. */
function bankForms(name: string): string[] {
  const upper = name.toUpperCase()
  const short = upper.replace(/\s+(INC|LLC|CORP|GMBH( & CO\. KG)?|AG|UG|SAS|SARL|SA|SL|SLU|BV|B\.V\.|NV|LTD|LIMITED|PLC)$/, '')
  return short === upper ? [upper] : [upper, short]
}

// ---------------------------------------------------------------------------------------------
// The world: categories with their merchants, built once with a fixed seed

interface WorldCategory extends CategorySpec {
  merchants: Merchant[]
  merchantWeight: number
}

interface World {
  categories: WorldCategory[]
  byName: Map<string, WorldCategory>
  totalWeight: number
}

const WORLD_SEED = 0x5eed_f1c7
let world: World | null = null

function buildWorld(): World {
  const rng = mulberry32(WORLD_SEED)
  const categories: WorldCategory[] = CATEGORY_SPECS.map((spec) => {
    const named = NAMED[spec.category] ?? []
    const tail = TAILS.find((t) => t.category === spec.category)
    const merchants: Merchant[] = named.map(([name, region, bank, alt], rank) => ({
      name,
      region: region === 'intl' ? pick(rng, REGIONS) : region,
      bank,
      weight: (1 - (tail?.share ?? 0)) / (rank + 1) ** 0.9 / harmonic(named.length, 0.9),
      alt,
    }))
    if (tail) {
      const seen = new Set(merchants.map((m) => m.name))
      for (let i = 0; i < tail.count; i++) {
        const region = pick(rng, REGIONS)
        const name = tailName(rng, tail, region)
        if (seen.has(name)) continue
        seen.add(name)
        // A long tail: a few tail merchants are regulars, most are rare.
        merchants.push({ name, region, bank: bankForms(name), weight: (tail.share / tail.count) * (rng() < 0.2 ? 3 : 0.5) })
      }
    }
    return { ...spec, merchants, merchantWeight: merchants.reduce((s, m) => s + m.weight, 0) }
  })
  return {
    categories,
    byName: new Map(categories.map((c) => [c.category, c])),
    totalWeight: categories.reduce((s, c) => s + c.weight, 0),
  }
}

function harmonic(n: number, power: number): number {
  let s = 0
  for (let i = 1; i <= n; i++) s += 1 / i ** power
  return s || 1
}

function getWorld(): World {
  world ??= buildWorld()
  return world
}

// ---------------------------------------------------------------------------------------------
// Rows

const GENERIC_SHARE = 0.05

/** Share of rows that carry merchant_name, by channel. */
const NAME_RATE: Record<Channel, number> = { card: 0.72, debit: 0.65, transfer: 0.55, credit: 0.55, fee: 0.2 }

const DAY_MS = 86_400_000

export function generateDataset(opts: { size: number; seed: number; start?: string }): LabelledTransaction[] {
  const { size, seed } = opts
  if (!Number.isInteger(size) || size < 0) throw new RangeError('size must be a non-negative integer')
  const startMs = Date.parse(`${opts.start ?? '2025-01-01'}T00:00:00Z`)
  if (Number.isNaN(startMs)) throw new RangeError('start must be YYYY-MM-DD')
  const w = getWorld()
  const rng = mulberry32(seed ^ 0x9e3779b9)
  const rows: LabelledTransaction[] = []
  for (let i = 0; i < size; i++) {
    const date = new Date(startMs + Math.floor(rng() * 365) * DAY_MS)
    rows.push(rng() < GENERIC_SHARE ? genericRow(rng, w, date) : merchantRow(rng, w, date))
  }
  // Statement order: by date, stable on generation order.
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) =>
      a.row.transaction_date < b.row.transaction_date ? -1 : a.row.transaction_date > b.row.transaction_date ? 1 : a.i - b.i,
    )
    .map((x) => x.row)
}

function merchantRow(rng: Rng, w: World, date: Date): LabelledTransaction {
  let cat = pickWeighted(rng, w.categories, w.totalWeight)
  const merchant = pickWeighted(rng, cat.merchants, cat.merchantWeight)
  let bank = merchant.bank
  for (const alt of merchant.alt ?? []) {
    if (rng() < alt.share) {
      cat = w.byName.get(alt.category)!
      bank = alt.bank ?? bank
      break
    }
  }
  const channel = pickWeighted(
    rng,
    cat.channels.map(([c, weight]) => ({ c, weight })),
    cat.channels.reduce((s, [, x]) => s + x, 0),
  ).c
  const amountMinor = signed(rng, cat.sign, amountFor(rng, cat.amount, merchant.name + cat.category))
  const ctx: RenderContext = { rng, region: merchant.region, channel, date, words: cat.words }
  const merchantText = render(ctx, pick(rng, bank))
  let description = render(
    ctx,
    pick(rng, merchant.templates ?? cat.templates).replace('{M}', () => merchantText),
  )
  description = noise(rng, description)
  const hasName = merchant.name !== '' && rng() < NAME_RATE[channel]
  return row(date, description, hasName ? merchant.name : null, amountMinor, cat)
}

function genericRow(rng: Rng, w: World, date: Date): LabelledTransaction {
  const choices = GENERIC.categories.map(([name, weight]) => ({ name, weight }))
  const choice = pickWeighted(
    rng,
    choices,
    choices.reduce((s, c) => s + c.weight, 0),
  )
  const cat = w.byName.get(choice.name)!
  const ctx: RenderContext = { rng, region: pick(rng, REGIONS), channel: 'fee', date, words: undefined }
  const description = noise(rng, render(ctx, pick(rng, GENERIC.description)))
  return row(date, description, null, signed(rng, cat.sign, amountFor(rng, cat.amount, null)), cat)
}

function row(date: Date, description: string, merchant: string | null, amountMinor: number, cat: CategorySpec): LabelledTransaction {
  return {
    transaction_date: date.toISOString().slice(0, 10),
    description,
    merchant_name: merchant,
    amount: formatMinor(amountMinor, 2),
    amount_minor: amountMinor,
    category: cat.category,
    accounting_category: cat.accounting_category,
    cash_flow_category: cat.cash_flow_category,
  }
}

function signed(rng: Rng, sign: Sign, magnitude: number): number {
  const negative = sign === 'out' || (sign === 'both' && rng() < 0.5)
  return negative ? -magnitude : magnitude
}

/** A positive amount in minor units: log-uniform in the category's range, or the merchant's fixed price. */
function amountFor(rng: Rng, spec: AmountSpec, fixedKey: string | null): number {
  const lo = Math.log(spec.min * 100)
  const hi = Math.log(spec.max * 100)
  if (spec.fixed && fixedKey !== null && rng() < 0.85) {
    const u = hash(fixedKey) / 4294967296
    const minor = Math.round(Math.exp(lo + u * (hi - lo)))
    // Subscription-style prices: whole units or .99, .50.
    return Math.max(1, Math.floor(minor / 100) * 100 + [0, 99, 50, 0][hash(`${fixedKey}/c`) % 4])
  }
  const minor = Math.max(1, Math.round(Math.exp(lo + rng() * (hi - lo))))
  if (spec.round !== undefined && rng() < spec.round) return Math.max(10_000, Math.round(minor / 10_000) * 10_000)
  return minor
}

// ---------------------------------------------------------------------------------------------
// Description rendering and noise

interface RenderContext {
  rng: Rng
  region: Region
  channel: Channel
  date: Date
  words: Localized | undefined
}

function render(ctx: RenderContext, template: string): string {
  const { rng, region } = ctx
  return template
    .replace(/\{P\}/g, () => render(ctx, pick(rng, PREFIXES[ctx.channel][region])))
    .replace(/\{C\}/g, () => pick(rng, CITIES[region]))
    .replace(/\{S\}/g, () => storeNumber(rng))
    .replace(/\{R\}/g, () => reference(rng))
    .replace(/\{N4\}/g, () => String(int(rng, 1000, 9999)))
    .replace(/\{D\}/g, () => dateText(rng, region, ctx.date))
    .replace(/\{MON\}/g, () => MONTHS[region][ctx.date.getUTCMonth()] + (rng() < 0.5 ? ` ${ctx.date.getUTCFullYear()}` : ''))
    .replace(/\{W\}/g, () => (ctx.words ? pick(rng, ctx.words[region]) : ''))
    .replace(/\s+/g, ' ')
    .trim()
}

function storeNumber(rng: Rng): string {
  const n = String(int(rng, 1, 9999)).padStart(int(rng, 3, 5), '0')
  return pick(rng, ['#', '', 'NO ', 'STORE ', 'F']) + n
}

const REF_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'

function reference(rng: Rng): string {
  if (rng() < 0.4) return String(int(rng, 100000, 999999999))
  let out = ''
  const length = int(rng, 6, 12)
  for (let i = 0; i < length; i++) out += i % 3 === 1 ? String(int(rng, 0, 9)) : REF_CHARS[int(rng, 0, REF_CHARS.length - 1)]
  return out
}

function dateText(rng: Rng, region: Region, date: Date): string {
  const d = new Date(date.getTime() - int(rng, 0, 2) * DAY_MS)
  const dd = String(d.getUTCDate()).padStart(2, '0')
  const mm = String(d.getUTCMonth() + 1).padStart(2, '0')
  switch (region) {
    case 'us':
      return `${mm}/${dd}`
    case 'de':
      return `${dd}.${mm}`
    case 'fr':
      return `${dd}/${mm}`
    case 'es':
      return `${dd}-${mm}`
    case 'nl':
      return `${dd}-${mm}-${d.getUTCFullYear()}`
    case 'uk':
      return `${dd} ${MONTHS.us[d.getUTCMonth()]}`
  }
}

/** Random casing and the fixed-width truncation of many bank exports. */
function noise(rng: Rng, text: string): string {
  let out = text
  const casing = rng()
  if (casing < 0.75) out = out.toUpperCase()
  else if (casing < 0.88) out = out.toLowerCase().replace(/(^|\s)(\S)/g, (_, sp: string, c: string) => sp + c.toUpperCase())
  else if (casing < 0.95) out = out.toLowerCase()
  if (rng() < 0.2 && out.length > 18) out = out.slice(0, int(rng, 18, Math.min(40, out.length))).trimEnd()
  return out
}
