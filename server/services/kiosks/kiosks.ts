import { bindVerb, type PersonContext } from '../context.ts';
import type { KiosksDeps } from './deps.ts';
import { quote } from './quote.ts';
import { sell } from './sell.ts';
import { readKiosk, setMargin } from './settings.ts';
import { transfer } from './transfer.ts';

// Kiosks (issue 21; docs/kiosks-and-merchants.md): businesses that sell crypto over the counter.
// A kiosk moves crypto from its wallet into its kiosk balance (and back), sets its margin over the
// market price, and sells to a customer standing in front of it who pays cash. One verb per file.

export type { KiosksDeps } from './deps.ts';

export function createKiosksService(deps: KiosksDeps) {
  return {
    read: (ctx: PersonContext) => readKiosk(deps, ctx),
    setMargin: bindVerb(deps, setMargin),
    transfer: bindVerb(deps, transfer),
    quote: bindVerb(deps, quote),
    sell: bindVerb(deps, sell),
  };
}

export type KiosksService = ReturnType<typeof createKiosksService>;
