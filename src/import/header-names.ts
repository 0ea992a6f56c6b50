/**
 * The header names of each field, as banks write them: one line per language (its ISO 639-1
 * codes before the colon), names split by `|`, most specific first within a field. The mapping
 * reads them through its normaliser (mapping.ts), so a name is written as the bank writes it
 * ("Beløp", "Сумма операции") and matches however a file cases or accents it; monobank writes
 * "Дата i час операції" with a Latin i, so it is there twice.
 */
export const HEADER_NAMES = {
  date: `
    en: date | transaction date | trans date | booking date
    de: buchungstag | buchungsdatum | datum | belegdatum
    fr: date operation | date de l operation | date de valeur
    es: fecha | fecha operacion | fecha valor
    nl: boekingsdatum | transactiedatum
    pl pt it lt: data
    en: date posted | posting date
    nb da: Dato | Transaksjonsdato | Bokføringsdato | Bogføringsdato | Posteringsdato | Transaktionsdato
    sv: Transaktionsdag | Transaktionsdatum | Bokföringsdag | Bokföringsdatum
    fi: Kirjauspäivä | Tapahtumapäivä | Päivämäärä | Maksupäivä
    pl: Data operacji | Data transakcji | Data księgowania
    cs: Datum provedení | Datum zaúčtování | Datum transakce | Datum pohybu
    ru: Дата | Дата операции | Дата транзакции | Дата проводки
    uk: Дата операції | Дата і час операції | Дата i час операції | Дата транзакції
    pt: Data mov. | Data movimento | Data do movimento | Data operação | Data da operação | Data lançamento | Data de lançamento
    it: Data operazione | Data registrazione | Data contabile
    zh: 交易日期 | 记账日期 | 入账日期 | 交易日 | 日期 | 交易時間 | 記帳日期
    ja: 日付 | 取引日 | 年月日 | お取引日 | 取扱日
    ko: 거래일시 | 거래일자 | 거래일 | 날짜 | 일자`,
  // The value dates of the Nordic languages come before 'valuta': Swedbank's "Valuta" beside "Valutadag" holds SEK.
  posted_date: `
    en: posted date | post date
    de: wertstellung
    sv nb da: Valutadag | Valutadato | Rentedato
    fi: Arvopäivä
    pl: Data waluty
    pt: Data valor
    it: Data valuta
    ru: Дата платежа | Дата валютирования
    de: valuta
    en fr: value date | date valeur
    de nl: valutadatum | rentedatum
    zh ja: 起息日 | 起算日`,
  amount: `
    en: billing amount | posted amount | amount in account currency
    zh: 入账金额 | 交易金额 | 发生额 | 金额 | 交易金額 | 金額
    ja: 取引金額 | お取引金額
    ko: 거래금액 | 금액
    en de fr: amount | betrag | betrag eur | betrag in eur | umsatz | montant | montant eur
    es nl: importe | bedrag | bedrag eur
    lt pl en: suma | sum | value | transaction amount | amount eur | amount usd | amount gbp | betrag waehrung | kwota
    nb da sv: Beløp | Beløb | Belopp
    fi: Määrä | Summa | Rahamäärä
    pl: Kwota transakcji | Kwota operacji
    cs: Částka | Objem | Částka v měně účtu
    ru: Сумма операции | Сумма в валюте счета | Сумма
    uk: Сума в валюті картки | Сума операції | Сума
    pt: Montante | Valor | Importância
    it: Importo
    en: net | gross`,
  debit: `
    en: debit | debit amount | withdrawal | withdrawals | money out | paid out
    de es nl: soll | ausgang | cargo | cargos | debet | af
    nb: Ut fra konto | Uttak fra konto | Ut av konto | Uttak | Ut
    da sv: Hævet | Udbetaling | Uttag
    fi: Veloitus | Veloitukset | Otto
    pl: Obciążenia | Obciążenie | Winien
    cs: Výdaj | Výdej
    ru: Расход | Дебет | Списание | Сумма расхода
    uk: Видаток | Списання | Витрати
    pt: Débito | Débitos
    it: Dare | Uscite | Addebiti | Addebito
    en: debits
    zh: 支出 | 支出金额 | 借方金额 | 借方发生额 | 支出金額 | 提款 | 转出金额
    ja: 出金金額 | 出金 | お引出し | お支払金額 | 支払金額 | 引出額
    ko: 출금액 | 출금 | 찾으신금액 | 출금금액`,
  credit: `
    en de es nl: credit | credit amount | deposit | deposits | money in | paid in | haben | eingang | abono | abonos | bij
    nb: Inn på konto | Innskudd på konto | Innskudd | Inn
    da sv: Indsat | Indbetaling | Insättning | Kredit
    fi: Pano | Hyvitys | Hyvitykset
    pl: Uznania | Uznanie
    cs: Příjem
    ru: Приход | Кредит | Зачисление | Поступление | Сумма прихода
    uk: Надходження | Зарахування
    pt: Crédito | Créditos
    it: Avere | Entrate | Accrediti | Accredito
    en: credits
    zh: 收入 | 收入金额 | 贷方金额 | 贷方发生额 | 存入 | 收入金額 | 存款 | 转入金额
    ja: 入金金額 | 入金 | お預入れ | お預入金額 | 預入額
    ko: 입금액 | 입금 | 맡기신금액 | 입금금액`,
  indicator: `
    en: d c | dc | c d | d k | dr cr | cr dr | debit credit | credit debit | debit or credit | credit or debit
    nl: af bij | bij af | debet credit | credit debet | CreditDebet | DebetCredit
    de es: soll haben | soll haben kennzeichen | s h | debe haber | d h | cargo abono
    en: indicator | sign | debit credit indicator | credit debit indicator | cdtdbtind
    nb da sv cs: Debet/Kredit | Kredit/Debet
    pl: Obciążenia/Uznania | Uznania/Obciążenia | Winien/Ma
    ru uk: Дебет/Кредит | Кредит/Дебет | Приход/Расход | Расход/Приход | Д/К
    pt: Débito/Crédito | Crédito/Débito
    it: Dare/Avere | Avere/Dare | Segno
    zh: 借贷标志 | 借贷 | 借贷方向 | 收支 | 收支类型 | 借貸 | 收/支
    ko: 입출구분 | 입출금구분`,
  description: `
    de fr es nl: description | verwendungszweck | buchungstext | libelle | libelle operation | concepto | omschrijving | mededelingen
    en: memo | narrative | details | transaction description | text | paiement | purpose | description 1 | reference text
    es nl: informacion | descripcion | naam omschrijving
    en fr: message | desc | remarque | label
    de fr: umsatzbeschreibung | beschreibung | libelle de l operation | intitule
    lt: paaiskinimai | mokejimo paskirtis
    nb da: Forklaring | Tekst | Beskrivelse | Melding | Meddelelse | Posteringstekst
    sv: Beskrivning | Meddelande | Transaktionstext
    fi: Viesti | Selitys | Kuvaus | Tapahtuma
    pl: Opis operacji | Opis transakcji | Tytuł | Opis | Szczegóły
    cs: Zpráva pro příjemce | Poznámka | Popis | Popis transakce | Zpráva | Uživatelská identifikace
    ru: Описание операции | Описание | Назначение платежа | Детали операции
    uk: Деталі операції | Опис операції | Опис | Призначення платежу
    pt: Descrição | Descritivo | Descrição do movimento
    it: Descrizione | Descrizione operazione | Descrizione completa | Causale
    zh: 摘要 | 交易摘要 | 交易说明 | 交易描述 | 用途 | 附言 | 说明
    ja: 内容 | お取引内容 | 取引内容
    ko: 적요 | 거래내용 | 내용 | 기재내용`,
  merchant_name: `
    en de: payee | merchant | auftraggeber empfaenger | auftraggeber empfanger | empfaenger | empfanger | beneficiary | counterparty
    de nl fr es: beguenstigter | name | naam | naam tegenpartij | beneficiaire | tiers | contraparte | gegenpartei | partner name | partner
    nl: Tegenrekeninghouder | Naam tegenrekening | Naam tegenrekeninghouder
    de: Beguenstigter/Zahlungspflichtiger | Zahlungsbeteiligter | Name Zahlungsbeteiligter
    lt: gavejas
    nb da sv: Mottaker | Modtager | Mottagare | Navn | Namn
    fi: Saaja/Maksaja | Saaja | Maksaja | Saajan nimi | Nimi
    pl: Nadawca/Odbiorca | Odbiorca | Kontrahent | Dane kontrahenta | Nazwa kontrahenta
    cs: Název protiúčtu | Protistrana | Název protistrany | Obchodník
    ru: Получатель | Контрагент | Наименование контрагента
    uk: Отримувач | Одержувач
    pt: Beneficiário | Entidade
    it: Beneficiario | Controparte
    zh: 对方户名 | 对方名称 | 交易对方 | 对手户名 | 对方账户名称 | 對方戶名
    ja: 相手先 | お取引先
    ko: 거래처 | 받는분 | 보낸분`,
  // Not the bare 'Валюта' (Monobank writes it beside the operation's amount, not the card's) nor 'Valuta' (a value date in German).
  currency_code: `
    en de fr es nl: currency | waehrung | wahrung | devise | moneda | munt | ccy | valuta code | currency code
    lt pl et cs: valiuta | waluta | valuuta | mena
    nl: Valutacode
    fi: Valuutta
    ru: Валюта счета | Код валюты
    uk: Валюта рахунку | Валюта картки | Код валюти
    pt it: Moeda | Divisa
    en: billing currency | account currency
    zh: 交易币种 | 币种 | 币别 | 货币 | 幣別 | 幣種
    ja ko: 通貨 | 통화`,
  reference: `
    en de es: reference | referenz | transaction id | fitid | id | bank reference | referencia | numero | check number | checknumber
    nl en fr: kenmerk | end to end id | operation number | n de transaction
    nb da sv: Referanse | Arkivreferanse | Referens | Verifikationsnummer
    fi: Arkistointitunnus | Arkistotunnus | Viite | Viitenumero
    pl: Numer referencyjny | Nr referencyjny | Numer transakcji
    cs: ID pohybu | ID transakce
    ru: Референс проводки | Номер операции | Номер документа
    uk: Номер операції | Номер документа
    pt it: Referência | Riferimento | Numero operazione
    zh: 交易流水号 | 流水号 | 凭证号 | 交易单号`,
  category: `
    en de fr pt it: category | kategorie | categorie | categoria | rubrik
    nb da sv: Kategori
    fi pl: Kategoria
    ru: Категория
    uk: Категорія`,
  // The file's own account. Not "Kontonummer" nor "IBAN" alone: DKB and Sparkasse name the counterparty's so.
  account: `
    en: account number | account no | own account
    nl: rekening | rekeningnummer | opdrachtgeversrekening | eigen rekening
    de: auftragskonto | iban auftragskonto | kontonummer auftragskonto
    fr es: numero de compte | numero de cuenta`,
  // Taken by --map or a bank's layout only: PayPal's Fee beside its Net is in the Net already.
  fee: '',
  // A running balance: checked against the amounts, never an amount itself (balance-chain.ts).
  balance: `
    en: balance | running balance | closing balance | account balance | ledger balance | book balance | balance after
    de: saldo | kontostand | saldo nach buchung
    fr es pt it: solde | saldo contable | saldo disponibile | saldo contabile
    nl: saldo na mutatie | saldo na trn | saldo na transactie | saldo na boeking
    nb da sv fi: Saldo efter | Disponibelt | Disponibelt beløb | Bokfört saldo | Saldo kirjauksen jälkeen
    pl cs: Saldo po operacji | Saldo po transakcji | Zůstatek | Zůstatek po transakci
    ru uk: Остаток | Остаток после операции | Залишок | Залишок після операції | Баланс
    zh: 余额 | 账户余额 | 联机余额 | 本次余额 | 交易后余额 | 可用余额 | 餘額 | 帳戶餘額
    ja: 残高 | 差引残高 | お取引後残高
    ko: 잔액 | 거래후잔액 | 잔고`,
} as const
