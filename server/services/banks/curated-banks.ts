// Major banks of the countries Coinfair names banks for, beside Germany's full list
// (bankdata-germany). Hand-kept, from the banks' own published routing numbers and SWIFT/BIC codes;
// tests/unit/banks-directory.test.ts checks every routing number's ABA checksum and every BIC's
// format and country. A bank's id is `<ISO>-<BIC8>`: stable as long as the bank keeps its BIC.
//
// `codes` are the national bank codes an account number carries: ABA routing numbers (US), the
// bank code inside the IBAN (ES, FR, IT, AT, BE). Where the IBAN's bank code is the BIC's first
// four letters (GB, NL, IE) the BIC is enough.

export interface CuratedBank {
  name: string;
  /** 8 or 11 characters. */
  bic: string;
  codes?: readonly string[];
}

export const CURATED_BANKS: Readonly<Record<string, readonly CuratedBank[]>> = {
  US: [
    {
      name: 'JPMorgan Chase Bank',
      bic: 'CHASUS33',
      codes: ['021000021', '322271627', '044000037', '071000013', '111000614'],
    },
    {
      name: 'Bank of America',
      bic: 'BOFAUS3N',
      codes: ['026009593', '121000358', '011000138', '111000025', '063100277'],
    },
    { name: 'Wells Fargo Bank', bic: 'WFBIUS6S', codes: ['121000248', '091000019'] },
    { name: 'Citibank', bic: 'CITIUS33', codes: ['021000089', '322271724'] },
    { name: 'U.S. Bank', bic: 'USBKUS44', codes: ['091000022', '123000220'] },
    { name: 'PNC Bank', bic: 'PNCCUS33', codes: ['043000096', '031000053'] },
    { name: 'Truist Bank', bic: 'BRBTUS33', codes: ['061000104', '053101121'] },
    { name: 'TD Bank', bic: 'NRTHUS33', codes: ['031101266', '011103093'] },
    { name: 'Capital One', bic: 'HIBKUS44', codes: ['051405515', '065000090'] },
    { name: 'Citizens Bank', bic: 'CTZIUS33', codes: ['011500120'] },
    { name: 'Fifth Third Bank', bic: 'FTBCUS3C', codes: ['042000314'] },
    { name: 'KeyBank', bic: 'KEYBUS33', codes: ['041001039'] },
    { name: 'HSBC Bank USA', bic: 'MRMDUS33', codes: ['021001088'] },
    { name: 'Regions Bank', bic: 'UPNBUS44', codes: ['062000019'] },
    { name: 'BMO Bank', bic: 'HATRUS44', codes: ['071000288'] },
    { name: 'Huntington National Bank', bic: 'HUNTUS33', codes: ['044000024'] },
    { name: 'M&T Bank', bic: 'MANTUS33', codes: ['022000046'] },
  ],
  GB: [
    { name: 'Barclays Bank UK', bic: 'BUKBGB22' },
    { name: 'Barclays Bank', bic: 'BARCGB22' },
    { name: 'HSBC UK Bank', bic: 'HBUKGB4B' },
    { name: 'HSBC Bank', bic: 'MIDLGB22' },
    { name: 'Lloyds Bank', bic: 'LOYDGB2L' },
    { name: 'NatWest', bic: 'NWBKGB2L' },
    { name: 'Royal Bank of Scotland', bic: 'RBOSGB2L' },
    { name: 'Santander UK', bic: 'ABBYGB2L' },
    { name: 'Nationwide Building Society', bic: 'NAIAGB21' },
    { name: 'Halifax', bic: 'HLFXGB21' },
    { name: 'TSB Bank', bic: 'TSBSGB2A' },
    { name: 'Monzo Bank', bic: 'MONZGB2L' },
  ],
  FR: [
    { name: 'BNP Paribas', bic: 'BNPAFRPP', codes: ['30004'] },
    { name: 'Société Générale', bic: 'SOGEFRPP', codes: ['30003'] },
    { name: 'LCL', bic: 'CRLYFRPP', codes: ['30002'] },
    { name: 'La Banque Postale', bic: 'PSSTFRPP', codes: ['20041'] },
    { name: 'CIC', bic: 'CMCIFRPP', codes: ['30066'] },
    { name: 'Crédit Agricole', bic: 'AGRIFRPP' },
    { name: 'Banque Populaire', bic: 'CCBPFRPP' },
  ],
  ES: [
    { name: 'Banco Santander', bic: 'BSCHESMM', codes: ['0049'] },
    { name: 'BBVA', bic: 'BBVAESMM', codes: ['0182'] },
    { name: 'CaixaBank', bic: 'CAIXESBB', codes: ['2100'] },
    { name: 'Banco Sabadell', bic: 'BSABESBB', codes: ['0081'] },
    { name: 'Bankinter', bic: 'BKBKESMM', codes: ['0128'] },
    { name: 'ING España', bic: 'INGDESMM', codes: ['1465'] },
  ],
  IT: [
    { name: 'UniCredit', bic: 'UNCRITMM', codes: ['02008'] },
    { name: 'Intesa Sanpaolo', bic: 'BCITITMM', codes: ['03069'] },
    { name: 'BNL BNP Paribas', bic: 'BNLIITRR', codes: ['01005'] },
    { name: 'Banca Monte dei Paschi di Siena', bic: 'PASCITMM', codes: ['01030'] },
    { name: 'Banco BPM', bic: 'BAPPIT21', codes: ['05034'] },
  ],
  NL: [
    { name: 'ABN AMRO', bic: 'ABNANL2A' },
    { name: 'ING Bank', bic: 'INGBNL2A' },
    { name: 'Rabobank', bic: 'RABONL2U' },
    { name: 'de Volksbank (SNS)', bic: 'SNSBNL2A' },
    { name: 'ASN Bank', bic: 'ASNBNL21' },
    { name: 'Triodos Bank', bic: 'TRIONL2U' },
    { name: 'Knab', bic: 'KNABNL2H' },
    { name: 'bunq', bic: 'BUNQNL2A' },
  ],
  BE: [
    { name: 'BNP Paribas Fortis', bic: 'GEBABEBB' },
    { name: 'KBC Bank', bic: 'KREDBEBB' },
    { name: 'ING Belgium', bic: 'BBRUBEBB' },
    { name: 'Belfius Bank', bic: 'GKCCBEBB' },
  ],
  AT: [
    { name: 'Erste Bank', bic: 'GIBAATWW' },
    { name: 'UniCredit Bank Austria', bic: 'BKAUATWW' },
    { name: 'Raiffeisen Bank International', bic: 'RZBAATWW' },
    { name: 'BAWAG', bic: 'BAWAATWW' },
  ],
  IE: [
    { name: 'AIB', bic: 'AIBKIE2D' },
    { name: 'Bank of Ireland', bic: 'BOFIIE2D' },
    { name: 'Permanent TSB', bic: 'IPBSIE2D' },
  ],
};
