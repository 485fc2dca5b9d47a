// The demo history's words: the demo buyers' names, and what people write in their feedback
// and replies (db/seed/demo-history.ts picks from these with its seeded random).

export const BUYER_NAMES = [
  'MariaPaz',
  'KwameOwusu',
  'LenaKraus',
  'RaviTrades',
  'JuanM87',
  'AmaraBello',
  'TomekW',
  'YukiHodl',
  'OmarFarouk',
  'NoraLind',
  'DiegoRamos',
  'ChiomaSats',
];

/** Feedback about the party who sold the coins. */
export const ABOUT_SELLER = [
  'Fast release, thank you!',
  'Released within minutes of my payment. Recommended.',
  'Smooth trade, would trade again.',
  'Clear instructions and a quick release.',
  'Second trade with them, reliable as always.',
  'Patient with a first-timer, explained every step.',
  'Everything as described in the terms.',
  'Great vendor, coins arrived right away.',
  'Liberación rápida, muy recomendable.',
  'Tudo certo, recomendo!',
  'Schnell und zuverlässig, gerne wieder.',
];

/** Feedback about the party who paid. */
export const ABOUT_BUYER = [
  'Paid quickly, smooth trade.',
  'Payment arrived right away. Thanks!',
  'Followed the terms, paid from their own account.',
  'Good communication, fast payment.',
  'Very professional, no issues at all.',
  'Pleasant trader, welcome back any time.',
  'Quick and easy, thank you.',
  'Paiement rapide, merci !',
  'Pago rápido y sin problemas.',
];

export const NEGATIVE_ABOUT_SELLER = [
  'Took over an hour to release after I paid.',
  'Slow to answer in the chat, had to remind them twice.',
  'Asked for extra documents that are not in the terms.',
  'Muy lento en responder.',
];

export const NEGATIVE_ABOUT_BUYER = [
  'Paid from an account in another name; sorted out in the end.',
  'Marked paid long before the money arrived.',
  'Paid at the last minute of the window.',
];

export const REPLIES = [
  'Sorry for the wait, my bank held the transfer for a while.',
  'Apologies, I was offline for a moment. Thanks for your patience.',
  'The terms ask for a payment from your own account; glad it worked out.',
];
