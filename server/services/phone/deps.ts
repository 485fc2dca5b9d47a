import { AppError } from '../errors.ts';
import type { SmsSender } from '../messaging/messaging.ts';
import type { PhoneRepository } from './repository.ts';

/** What every verb of the phone service (phone.ts wires them) is made from. */
export interface PhoneDeps {
  repo: PhoneRepository;
  sms: SmsSender;
  now: () => number;
}

export function fieldError(field: string, message: string): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, { field, details: [{ field, message }] });
}
