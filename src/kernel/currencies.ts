/**
 * ISO 4217 active currency codes and their minor-unit exponents (List One, 2024 edition).
 * Funds codes and precious metals (XAU, XDR, ...) are left out: they do not move through bank accounts.
 */
const EXPONENT_0 = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF'
const EXPONENT_3 = 'BHD IQD JOD KWD LYD OMR TND'
const EXPONENT_4 = 'CLF UYW'
const EXPONENT_2 =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS ' +
  'GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL ' +
  'MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK ' +
  'PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS ' +
  'TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG'

const table = new Map<string, number>()
for (const [list, exp] of [
  [EXPONENT_0, 0],
  [EXPONENT_2, 2],
  [EXPONENT_3, 3],
  [EXPONENT_4, 4],
] as const) {
  for (const code of list.split(' ')) table.set(code, exp)
}

export const CURRENCY_CODES: readonly string[] = [...table.keys()].sort()

export function isCurrency(code: string): boolean {
  return table.has(code)
}

/** Minor-unit exponent of an ISO 4217 currency; throws for an unknown code (validate first). */
export function currencyExponent(code: string): number {
  const exp = table.get(code)
  if (exp === undefined) throw new Error(`unknown currency ${code}`)
  return exp
}
