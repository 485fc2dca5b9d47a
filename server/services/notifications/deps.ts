import type { EventBus } from '../../realtime/bus.ts';
import type { NotificationsRepository } from './repository.ts';

/** What every verb of the notifications service (notifications.ts wires them) is made from. */
export interface NotificationsDeps {
  repo: NotificationsRepository;
  bus: EventBus;
  now: () => number;
}
