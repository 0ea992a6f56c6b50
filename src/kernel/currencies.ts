/**
 * ISO 4217 currency codes and their minor-unit exponents: the active ones (List One, 2024 edition)
 * and the historic ones (List Three) a bank file or the ECB's rate history may still carry: the
 * currencies the euro replaced (LTL until 2014, DEM, FRF, ...) and older codes of active currencies
 * (ROL, TRL, HRK, ...). Funds codes and precious metals (XAU, XDR, ...) are left out: they do not
 * move through bank accounts.
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

/** Historic codes (ISO 4217 List Three) by exponent, each with the year it was withdrawn. */
const HISTORIC_0 = 'BYR:2016 ESP:2002 ITL:2002 PTE:2002 TRL:2005'
const HISTORIC_2 =
  'ATS:2002 BEF:2002 LUF:2002 GRD:2002 ROL:2005 CYP:2008 DEM:2002 EEK:2011 FIM:2002 FRF:2002 HRK:2023 IEP:2002 LTL:2015 LVL:2014 MTL:2008 NLG:2002 ' +
  'SIT:2007 SKK:2009 CUC:2021 MRO:2017 STD:2017 SLL:2023 VEF:2018 ZWL:2024 BGL:1999 CSK:1993 LTT:1993 ' +
  'LVR:1993 YUM:2003 CSD:2006 SDD:2007 GHC:2007 MZM:2006 AZM:2006 TMM:2009 RUR:1998 SRG:2004 ZMK:2013 MGF:2005 ANG:2025'

const table = new Map<string, number>()
const historic = new Map<string, number>()
for (const [list, exp] of [
  [EXPONENT_0, 0],
  [EXPONENT_2, 2],
  [EXPONENT_3, 3],
  [EXPONENT_4, 4],
] as const) {
  for (const code of list.split(' ')) table.set(code, exp)
}
for (const [list, exp] of [
  [HISTORIC_0, 0],
  [HISTORIC_2, 2],
] as const) {
  for (const entry of list.split(' ')) {
    const [code, year] = entry.split(':')
    // A code both active and withdrawn (ANG, replaced by XCG in 2025) keeps its active exponent.
    if (!table.has(code)) table.set(code, exp)
    historic.set(code, Number(year))
  }
}

/** A withdrawn code (LTL, DEM, ...): the year ISO lists it withdrawn, else undefined. */
export function withdrawnIn(code: string): number | undefined {
  return historic.get(code)
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
