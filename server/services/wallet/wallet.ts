import { renderSVG } from 'uqr';
import type { ChainNetwork, LedgerCurrency } from '../../../db/schema/index.ts';
import { CRYPTO_DECIMALS, fromMinorUnits, toMinorUnits } from '../../../src/lib/shared/money.ts';
import type { EventBus } from '../../realtime/bus.ts';
import { personalChannel } from '../../realtime/channels.ts';
import type { UserRow } from '../accounts/repository.ts';
import type { ChainService } from '../chain/chain.ts';
import { WALLET_EVENT } from '../chain/chain.ts';
import { NETWORKS, SEND_NETWORKS } from '../chain/networks.ts';
import type { ChainTxRow } from '../chain/repository.ts';
import { AppError, type FieldIssue, invalidInput } from '../errors.ts';
import { LEDGER_CHANNEL, LEDGER_POSTED, type LedgerPostedEvent, type LedgerService } from '../ledger/ledger.ts';
import type { TwoFactorService } from '../two-factor/two-factor.ts';
import type { AddressBook } from './address-book.ts';
import type { BtcNetwork } from './addresses.ts';
import { validateBtcAddress, validateUsdtAddress } from './addresses.ts';
import type { WalletRepository } from './repository.ts';
import { isAllowedSendout } from './sendout-permission.ts';

// The wallet (issue 5, spec sections 3, 7 and 9): balances, history, deposit addresses and
// sendouts of the signed-in person. Amounts leave this module as decimal text with the
// currency's digits (`0.00150000`, `12.500000`): exact, and the shape the current user's
// `balance` already has (docs/decisions.md).

export const CURRENCIES: readonly LedgerCurrency[] = ['BTC', 'USDT'];
export const HISTORY_PAGE_SIZE = 50;

export const formatAmount = (minor: number, currency: LedgerCurrency) =>
  fromMinorUnits(minor, CRYPTO_DECIMALS[currency]);

export interface SendInput {
  currency: LedgerCurrency;
  address: string;
  amount: string;
  network?: ChainNetwork | undefined;
  code?: string | undefined;
  request_id: string;
}

function sendoutView(row: ChainTxRow) {
  return {
    id: row.publicId,
    cryptoCurrencyCode: row.currency,
    network: row.network,
    address: row.address,
    amount: formatAmount(row.amount, row.currency),
    fee: formatAmount(row.fee, row.currency),
    status: row.status,
    txid: row.txid,
    confirmations: row.confirmations,
    requiredConfirmations: row.requiredConfirmations,
    createdAt: Math.floor(row.createdAt / 1000),
  };
}

/** The text a deposit QR code carries: a BIP21 URI for bitcoin; the bare address on TRON, which has no common URI. */
const qrTextOf = (network: ChainNetwork, address: string) => (network === 'bitcoin' ? `bitcoin:${address}` : address);

export function createWalletService({
  ledger,
  chain,
  addressBook,
  btcNetwork,
  twoFactor,
  repo,
  bus,
}: {
  ledger: LedgerService;
  chain: ChainService;
  addressBook: AddressBook;
  btcNetwork: BtcNetwork;
  twoFactor: TwoFactorService;
  repo: WalletRepository;
  bus: EventBus;
}) {
  // Every committed posting that touched someone's wallet tells their wallet screen to reload.
  bus.subscribe(LEDGER_CHANNEL, (event) => {
    if (event.type !== LEDGER_POSTED) return;
    for (const publicId of (event.payload as LedgerPostedEvent).userPublicIds)
      bus.publish(personalChannel('wallet', publicId), { type: WALLET_EVENT, payload: null });
  });

  /** Every field's problem at once, with a translation key each (spec section 8). */
  const checkSend = (input: SendInput) => {
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
  };

  return {
    /** Spec section 7 `GET /rest/v1/balances`: both currencies always, zero when nothing arrived yet (section 9). */
    balances(userId: number) {
      const balances = ledger.balances(userId);
      const incoming = chain.incomingOf(userId);
      return CURRENCIES.map((currency) => ({
        cryptoCurrencyCode: currency,
        balance: formatAmount(balances[currency], currency),
        incoming: formatAmount(incoming[currency], currency),
      }));
    },

    /** One page (1-based) of the wallet's history, newest first. */
    transactions(userId: number, page: number) {
      const rows = repo.history(userId, HISTORY_PAGE_SIZE + 1, (page - 1) * HISTORY_PAGE_SIZE);
      const more = rows.length > HISTORY_PAGE_SIZE;
      const items = rows.slice(0, HISTORY_PAGE_SIZE).map((row) => ({
        id: row.id,
        type: row.type,
        cryptoCurrencyCode: row.currency,
        amount: formatAmount(row.amount, row.currency),
        // A return settles a failed sendout: the entry itself is complete.
        status: row.type === 'sendout_return' ? 'completed' : (row.chainStatus ?? 'completed'),
        createdAt: Math.floor(row.createdAt / 1000),
        txid: row.type === 'sendout_return' ? null : row.txid,
        network: row.network,
        ...(row.chainStatus && row.type !== 'sendout_return'
          ? {
              address: row.address,
              confirmations: row.confirmations,
              requiredConfirmations: row.requiredConfirmations,
              ...(row.type === 'sendout' ? { fee: formatAmount(row.fee ?? 0, row.currency) } : {}),
            }
          : {}),
      }));
      return { items, meta: { page, perPage: HISTORY_PAGE_SIZE, nextPageExist: more } };
    },

    /** The user's deposit address for `currency`, created on first call, with its QR code. */
    depositAddress(userId: number, currency: LedgerCurrency) {
      const row = addressBook.current(userId, currency);
      return {
        cryptoCurrencyCode: currency,
        network: row.network,
        address: row.address,
        qrSvg: renderSVG(qrTextOf(row.network, row.address), { ecc: 'M', border: 2, pixelSize: 6 }),
        requiredConfirmations: NETWORKS[row.network].requiredConfirmations,
      };
    },

    /**
     * A sendout (spec section 6): checked fields, the allowed-sendout flag, the sendout second
     * factor, then the debit into the hold. A retry with the same request_id answers the first
     * sendout without asking the second factor again (its code is spent by then).
     */
    send(user: UserRow, input: SendInput): { sendout: ReturnType<typeof sendoutView>; replayed: boolean } {
      const { network, amount, address } = checkSend(input);
      if (!isAllowedSendout(user))
        throw new AppError(
          'FORBIDDEN',
          'Sending out needs a verified e-mail address and an account in good standing.',
          {
            key: 'sendout_not_allowed',
          },
        );
      if (!chain.canSend(network))
        throw new AppError('SENDOUT_UNAVAILABLE', `Sendouts on ${network} are not available right now.`, {
          field: 'network',
          key: 'sendout_unavailable',
          params: { network },
        });
      const request = {
        userId: user.id,
        currency: input.currency,
        network,
        address,
        amount,
        requestId: input.request_id,
      };
      if (!chain.sendoutOf(user.id, input.request_id)) {
        const check = twoFactor.verify(user.id, 'sendout', input.code);
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
        const { row, replayed } = chain.requestSendout(request);
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
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
