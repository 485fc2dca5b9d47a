import type { Locale } from '../../../src/lib/shared/i18n/locales.ts';
import { type Catalogue, catalogues } from '../../../src/lib/shared/i18n/messages.ts';
import type { PaymentGroupView, PaymentMethodView } from '../../../src/lib/shared/views/reference.ts';
import type { ServiceContext } from '../context.ts';
import type { ReferenceParts } from './deps.ts';
import type { ReferenceRepository } from './repository.ts';

// Payment groups with their methods, in the field names of spec section 3 ("Payment method",
// "Payment group"), for the create-offer form and anything else that picks a method. Method names
// are brand names and stay as they are; group names follow the reader's language where the
// catalogues have one (the six selectable groups of spec section 9).

/** How many methods a group names as popular: enough for a row of chips. */
const POPULAR_PER_GROUP = 5;

export type { PaymentGroupView, PaymentMethodView };

type Rows = Pick<ReferenceRepository, 'listPaymentGroups' | 'listPaymentMethods' | 'countPaymentMethodCountries'>;

function groupName(locale: Locale, slug: string, fallback: string): string {
  const key = `paymentGroup.${slug}.name` as keyof Catalogue;
  return catalogues[locale][key] ?? catalogues.en[key] ?? fallback;
}

export async function shapePaymentGroups(repo: Rows, locale: Locale): Promise<PaymentGroupView[]> {
  const countries = new Map((await repo.countPaymentMethodCountries()).map((r) => [r.paymentMethodId, r.countries]));
  const methods = await repo.listPaymentMethods();
  return (await repo.listPaymentGroups()).map((group) => {
    const own: PaymentMethodView[] = methods
      .filter((m) => m.groupId === group.id)
      .map((m) => ({
        id: m.id,
        name: m.name,
        originalName: m.name,
        slug: m.slug,
        description_short: m.descriptionShort,
        payment_method_group_id: m.groupId,
        groupId: m.groupId,
        isCopyrighted: m.isCopyrighted,
        warningText: m.warningText,
        currencies: m.currencies,
      }));
    // Stable sort: among equally popular methods the curated seed order decides.
    const popular = own
      .filter((m) => (countries.get(m.id) ?? 0) > 0)
      .sort((a, b) => (countries.get(b.id) ?? 0) - (countries.get(a.id) ?? 0))
      .slice(0, POPULAR_PER_GROUP)
      .map((m) => m.slug);
    return {
      id: group.id,
      name: groupName(locale, group.slug, group.name),
      slug: group.slug,
      description: group.description,
      sell_description: group.sellDescription,
      imageUrl: null,
      popular_payment_methods: popular,
      isSelectable: group.isSelectable,
      methods: own,
    };
  });
}

/** Payment groups with their methods; reference rows only, so shaped once per language. */
export async function listPaymentGroups(
  { repo, caches }: ReferenceParts,
  _ctx: ServiceContext,
  { locale }: { locale: Locale },
): Promise<PaymentGroupView[]> {
  let list = caches.paymentGroups.get(locale);
  if (!list) {
    list = await shapePaymentGroups(repo, locale);
    caches.paymentGroups.set(locale, list);
  }
  return list;
}
