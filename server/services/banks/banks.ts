import type { BankView, IbanLookupView, RoutingLookupView } from '../../../src/lib/shared/views/bank-accounts.ts';
import type { ServiceContext } from '../context.ts';
import { invalidInput, notFound } from '../errors.ts';
import { checkIban, friendlyIban } from './checks.ts';
import { type Bank, bankOfIban, bankOfRoutingNumber, banksOf } from './directory.ts';
import { issue } from './issues.ts';
import type { BankReferenceRepository } from './repository.ts';

// The bank directory over HTTP (spec section 7 "Bank accounts"; docs/bank-accounts.md): the banks
// of a country, and what a typed IBAN or routing number says, so a form can name the bank as the
// person types. The data is directory.ts's; this only names countries by the reference tables' ids.

export { bankById, hasBankData, isEligibleForBanks } from './directory.ts';

export const bankView = (bank: Bank): BankView => ({
  id: bank.id,
  name: bank.name,
  bic: bank.bic,
  countryIso: bank.countryIso,
});

export function createBanksService({ reference }: { reference: BankReferenceRepository }) {
  return {
    async list(_ctx: ServiceContext, { countryId }: { countryId: number }): Promise<BankView[]> {
      const country = await reference.countryById(countryId);
      if (!country) throw notFound('Country', 'country_id');
      return banksOf(country.iso).map(bankView);
    },

    async byIban(_ctx: ServiceContext, { iban }: { iban: string }): Promise<IbanLookupView> {
      const checked = checkIban(iban);
      if (!checked.ok) throw invalidInput([issue('iban', checked.problem)]);
      const found = bankOfIban(checked.iban);
      const country = await reference.countryByIso(checked.countryIso);
      return {
        iban: checked.iban,
        ibanFormatted: friendlyIban(checked.iban),
        country: { id: country?.id ?? null, iso: checked.countryIso, name: country?.name ?? null },
        bankCode: checked.bankCode,
        bic: found?.bic ?? null,
        bank: found?.bank ? bankView(found.bank) : null,
      };
    },

    byRoutingNumber(_ctx: ServiceContext, { routingNumber }: { routingNumber: string }): RoutingLookupView {
      const digits = routingNumber.replace(/[\s-]+/g, '');
      if (!/^\d+$/.test(digits)) throw invalidInput([issue('routing_number', 'invalid_format')]);
      if (digits.length !== 9) throw invalidInput([issue('routing_number', 'not_correct_length')]);
      const { valid, bank } = bankOfRoutingNumber(digits);
      if (!valid) throw invalidInput([issue('routing_number', 'invalid_checksum')]);
      return { routingNumber: digits, bank: bank ? bankView(bank) : null };
    },
  };
}

export type BanksService = ReturnType<typeof createBanksService>;
