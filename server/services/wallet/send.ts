import type { ChainNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, toMinorUnits } from '../../../src/lib/shared/money.ts';
import { NETWORKS, SEND_NETWORKS } from '../chain/networks.ts';
import type { PersonContext } from '../context.ts';
import { AppError, type FieldIssue, invalidInput } from '../errors.ts';
import type { BtcNetwork } from './addresses.ts';
import { validateBtcAddress, validateUsdtAddress } from './addresses.ts';
import type { WalletDeps } from './deps.ts';
import { formatAmount, type SendoutView, sendoutView } from './format.ts';
import { isAllowedSendout } from './sendout-permission.ts';

export interface SendInput {
  currency: LedgerCurrency;
  address: string;
  amount: string;
  network?: ChainNetwork | undefined;
  code?: string | undefined;
  request_id: string;
}

/** Every field's problem at once, with a translation key each (spec section 8). */
function checkSend(input: SendInput, btcNetwork: BtcNetwork) {
  const issues: FieldIssue[] = [];
  const { currency } = input;
  const networks = SEND_NETWORKS[currency];
  // BTC has one network, so it may be left out; USDT must say where it goes.
  const network = input.network ?? (networks.length === 1 ? networks[0] : undefined);
  if (!network || !networks.includes(network))
    issues.push({
      field: 'network',
      message: `Choose the network: ${networks.join(' or ')}.`,
      key: 'sendout_network_invalid',
      params: { networks: networks.join(', ') },
    });

  const decimals = CRYPTO_DECIMALS[currency];
  const amount = toMinorUnits(input.amount, decimals);
  if (amount === undefined)
    issues.push({
      field: 'amount',
      message: `Enter an amount such as 0.5, with at most ${decimals} digits after the point.`,
      key: 'sendout_amount_invalid',
      params: { decimals },
    });
  else if (network && networks.includes(network) && amount < NETWORKS[network].minSendout) {
    const min = formatAmount(NETWORKS[network].minSendout, currency);
    issues.push({
      field: 'amount',
      message: `The smallest sendout is ${min} ${currency}.`,
      key: 'sendout_amount_min',
      params: { min, currency },
    });
  }

  let address = input.address.trim();
  const check =
    currency === 'BTC'
      ? validateBtcAddress(address, btcNetwork)
      : validateUsdtAddress(address, network === 'ERC20' ? 'ERC20' : 'TRC20');
  if (check.ok) address = check.normalized;
  else {
    const messages = {
      format: `This is not a ${network ?? currency} address.`,
      checksum: 'This address has a typo: its checksum does not match. Copy it again from the recipient.',
      network: `This address belongs to another network than ${network ?? currency}.`,
    } as const;
    issues.push({
      field: 'address',
      message: messages[check.reason],
      key: `address_${check.reason}`,
      params: { network: network ?? currency },
    });
  }
  if (issues.length > 0 || !network || amount === undefined) throw invalidInput(issues);
  return { network, amount, address };
}

/**
 * A sendout (spec section 6): checked fields, the allowed-sendout flag, the sendout second
 * factor, then the debit into the hold. A retry with the same request_id answers the first
 * sendout without asking the second factor again (its code is spent by then).
 */
export function createSend({ chain, twoFactor, btcNetwork }: WalletDeps) {
  return async function send(
    ctx: PersonContext,
    input: SendInput,
  ): Promise<{ sendout: SendoutView; replayed: boolean }> {
    const { user } = ctx.auth;
    const { network, amount, address } = checkSend(input, btcNetwork);
    if (!isAllowedSendout(user))
      throw new AppError('FORBIDDEN', 'Sending out needs a verified e-mail address and an account in good standing.', {
        key: 'sendout_not_allowed',
      });
    if (!chain.canSend(ctx, { network }))
      throw new AppError('SENDOUT_UNAVAILABLE', `Sendouts on ${network} are not available right now.`, {
        field: 'network',
        key: 'sendout_unavailable',
        params: { network },
      });
    if (!(await chain.sendoutOf(ctx, { requestId: input.request_id }))) {
      const check = await twoFactor.verify(ctx, { userId: user.id, purpose: 'sendout', code: input.code });
      if (check === 'failed')
        throw input.code?.trim()
          ? new AppError('TWO_FACTOR_INVALID', 'This code is not correct.', {
              field: 'code',
              key: 'two_factor_invalid',
            })
          : new AppError('TWO_FACTOR_REQUIRED', 'Enter the code from your authenticator app.', {
              field: 'code',
              key: 'two_factor_required',
            });
    }
    try {
      const request = { currency: input.currency, network, address, amount, requestId: input.request_id };
      const { row, replayed } = await chain.requestSendout(ctx, request);
      return { sendout: sendoutView(row), replayed };
    } catch (error) {
      if (error instanceof AppError && error.code === 'INSUFFICIENT_FUNDS') {
        const fee = formatAmount(NETWORKS[network].sendoutFee, input.currency);
        throw new AppError('INSUFFICIENT_FUNDS', `The amount and the network fee (${fee}) exceed your balance.`, {
          field: 'amount',
          key: 'sendout_insufficient_funds',
          params: { fee, currency: input.currency },
        });
      }
      throw error;
    }
  };
}
