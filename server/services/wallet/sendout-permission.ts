// Who may send coins out of the wallet (spec section 6: "sending out needs the allowed-sendout
// flag"; docs/decisions/057-wallet-api-and-sendouts.md 2026-11-24 "Wallet"): a proven e-mail address (the account can be
// reached about a sendout) and an account in good standing. Identity verification is not asked
// until the verification issue (`isKYCRequired` stays false).

export function isAllowedSendout(user: { isEmailVerified: boolean; status: 'active' | 'suspended' | 'banned' }) {
  return user.isEmailVerified && user.status === 'active';
}
