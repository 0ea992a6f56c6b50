/**
 * Month names as bank files write them, in the languages the column mapping knows: each language's
 * full names, its abbreviations, and the other forms a date takes (the genitive "5 марта", "5
 * stycznia"; the Finnish partitive "5. tammikuuta"; old spellings "Jänner", "setiembre"). A word
 * is read case- and accent-insensitively ("MÄR", "mar", "févr", "fevr"), a dot after it aside.
 * Words are compared by `foldWord`; no word names two months in two languages (a test holds it).
 */

export interface MonthNames {
  full: readonly string[]
  short: readonly string[]
  /** Other whole forms of each month a date is written with (its genitive, an old spelling); '' for none. */
  alt?: readonly string[]
  /** Other abbreviations of each month ("Sept", "Mrz"); '' for none. */
  abbr?: readonly string[]
}

const words = (text: string) => text.split(' ').map((w) => w.replaceAll('_', ' ').trim())

export const MONTH_NAMES: Record<string, MonthNames> = {
  en: {
    full: words('January February March April May June July August September October November December'),
    short: words('Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'),
    abbr: words('_ _ _ _ _ _ _ _ Sept _ _ _'),
  },
  de: {
    full: words('Januar Februar März April Mai Juni Juli August September Oktober November Dezember'),
    short: words('Jan Feb Mär Apr Mai Jun Jul Aug Sep Okt Nov Dez'),
    alt: words('Jänner Feber _ _ _ _ _ _ _ _ _ _'),
    abbr: words('Jän _ Mrz _ _ _ _ _ Sept _ _ _'),
  },
  fr: {
    full: words('janvier février mars avril mai juin juillet août septembre octobre novembre décembre'),
    short: words('janv févr mars avr mai juin juil août sept oct nov déc'),
    abbr: words('_ fév _ _ _ _ _ _ _ _ _ _'),
  },
  es: {
    full: words('enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'),
    short: words('ene feb mar abr may jun jul ago sep oct nov dic'),
    alt: words('_ _ _ _ _ _ _ _ setiembre _ _ _'),
    abbr: words('_ _ _ _ _ _ _ _ sept,set _ _ _'),
  },
  nl: {
    full: words('januari februari maart april mei juni juli augustus september oktober november december'),
    short: words('jan feb mrt apr mei jun jul aug sep okt nov dec'),
    abbr: words('_ _ _ _ _ _ _ _ sept _ _ _'),
  },
  it: {
    full: words('gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre'),
    short: words('gen feb mar apr mag giu lug ago set ott nov dic'),
  },
  pt: {
    full: words('janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro'),
    short: words('jan fev mar abr mai jun jul ago set out nov dez'),
  },
  pl: {
    full: words('styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik listopad grudzień'),
    short: words('sty lut mar kwi maj cze lip sie wrz paź lis gru'),
    alt: words('stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada grudnia'),
  },
  cs: {
    full: words('leden únor březen duben květen červen červenec srpen září říjen listopad prosinec'),
    short: words('led úno bře dub kvě čvn čvc srp zář říj lis pro'),
    alt: words('ledna února března dubna května června července srpna _ října listopadu prosince'),
  },
  lt: {
    full: words('sausis vasaris kovas balandis gegužė birželis liepa rugpjūtis rugsėjis spalis lapkritis gruodis'),
    short: words('saus vas kov bal geg birž liep rugp rugs spal lapkr gruod'),
    alt: words('sausio vasario kovo balandžio gegužės birželio liepos rugpjūčio rugsėjo spalio lapkričio gruodžio'),
  },
  lv: {
    full: words('janvāris februāris marts aprīlis maijs jūnijs jūlijs augusts septembris oktobris novembris decembris'),
    short: words('janv febr marts apr maijs jūn jūl aug sept okt nov dec'),
    // The genitive ("marta"), then the locative a date is written with ("2024. gada 5. martā").
    alt: words(
      'janvāra,janvārī februāra,februārī marta,martā aprīļa,aprīlī maija,maijā jūnija,jūnijā jūlija,jūlijā augusta,augustā septembra,septembrī oktobra,oktobrī novembra,novembrī decembra,decembrī',
    ),
  },
  et: {
    full: words('jaanuar veebruar märts aprill mai juuni juuli august september oktoober november detsember'),
    short: words('jaan veebr märts apr mai juuni juuli aug sept okt nov dets'),
  },
  no: {
    full: words('januar februar mars april mai juni juli august september oktober november desember'),
    short: words('jan feb mar apr mai jun jul aug sep okt nov des'),
  },
  da: {
    full: words('januar februar marts april maj juni juli august september oktober november december'),
    short: words('jan feb mar apr maj jun jul aug sep okt nov dec'),
  },
  sv: {
    full: words('januari februari mars april maj juni juli augusti september oktober november december'),
    short: words('jan feb mars apr maj juni juli aug sep okt nov dec'),
  },
  fi: {
    full: words('tammikuu helmikuu maaliskuu huhtikuu toukokuu kesäkuu heinäkuu elokuu syyskuu lokakuu marraskuu joulukuu'),
    short: words('tammi helmi maalis huhti touko kesä heinä elo syys loka marras joulu'),
    // The partitive a date is written with ("5. tammikuuta 2024").
    alt: words(
      'tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta elokuuta syyskuuta lokakuuta marraskuuta joulukuuta',
    ),
    abbr: words('tammik helmik maalisk huhtik toukok kesäk heinäk elok syysk lokak marrask jouluk'),
  },
  ru: {
    full: words('январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь'),
    short: words('янв фев мар апр май июн июл авг сен окт ноя дек'),
    alt: words('января февраля марта апреля мая июня июля августа сентября октября ноября декабря'),
    abbr: words('_ февр _ _ _ _ _ _ сент _ нояб _'),
  },
  uk: {
    full: words('січень лютий березень квітень травень червень липень серпень вересень жовтень листопад грудень'),
    short: words('січ лют бер квіт трав черв лип серп вер жовт лист груд'),
    alt: words('січня лютого березня квітня травня червня липня серпня вересня жовтня листопада грудня'),
    abbr: words('_ _ _ кві тра чер _ сер _ жов лис гру'),
  },
}

/** A word as month names are compared: lower case, without accents (NFD marks dropped). */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** Every form of each month, folded: the month (1-12), and whether the form is no abbreviation. */
const BY_WORD = new Map<string, { month: number; full: boolean }>()
/** Words that name two months (none: a test holds it), for that test. */
export const CONFLICTS: string[] = []

for (const names of Object.values(MONTH_NAMES)) {
  const forms = (list: readonly string[] | undefined, month: number) => (list?.[month - 1] ?? '').split(',').filter(Boolean)
  for (let month = 1; month <= 12; month++) {
    for (const [list, full] of [
      [names.full, true],
      [names.alt, true],
      [names.short, false],
      [names.abbr, false],
    ] as const) {
      for (const form of forms(list, month)) {
        const word = foldWord(form)
        const was = BY_WORD.get(word)
        if (was && was.month !== month) CONFLICTS.push(word)
        // A word that is some language's abbreviation ("mai", "juni") is named as one.
        BY_WORD.set(word, { month, full: full && (was?.full ?? true) })
      }
    }
  }
}

/** The most letters a month's form has, with room for a long accent-free spelling. */
const LONGEST = 20

/** Raw words already looked up: a file writes the same few again and again. */
const SEEN = new Map<string, number>()

/** The month (1-12) a word names in any language, 0 for none. */
export function monthOf(word: string): number {
  // No month's name is this long: such a word is neither looked up nor kept.
  if (word.length > LONGEST) return 0
  let month = SEEN.get(word)
  if (month === undefined) {
    month = BY_WORD.get(foldWord(word))?.month ?? 0
    if (SEEN.size > 1000) SEEN.clear()
    SEEN.set(word, month)
  }
  return month
}

/** Whether a month's word is written whole ("March", "марта"), not abbreviated ("Mar", "mai"). */
export function isFullName(word: string): boolean {
  return BY_WORD.get(foldWord(word))?.full ?? false
}
