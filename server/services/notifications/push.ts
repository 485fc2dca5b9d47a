import { personalChannel, tradeChannel } from '../../realtime/channels.ts';
import type { ChannelAuthorizer } from '../../realtime/hub.ts';
import type { PushKeys } from '../../realtime/push-keys.ts';
import type { PersonContext } from '../context.ts';
import { AppError } from '../errors.ts';

// Spec section 7: `POST /trade/push-authorize/{id}` hands a page the key its socket presents to
// join the caller's own channels; `POST /account/re-auth-push-subscription` renews it when a
// heartbeat answers ACCESS_DENIED. `{id}` is the caller's public id (personal channels) or a trade
// hash (that trade's channel); docs/decisions/065-push-authorisation.md 2026-11-24 "Push authorisation".

export const MAX_PUSH_CHANNELS = 20;

export interface PushAuthorization {
  auth_key: string;
  channels: string[];
  /** Unix seconds. */
  expiresAt: number;
}

export function createPushAuthorizer({ keys, authorize }: { keys: PushKeys; authorize: ChannelAuthorizer }) {
  // The key names the asking session, so it stops granting when that session ends.
  const grant = async (ctx: PersonContext, channels: readonly string[]): Promise<PushAuthorization> => {
    const { user, session } = ctx.auth;
    const principal = { userId: user.id, userPublicId: user.publicId };
    const granted = await Promise.all(channels.map((channel) => authorize(channel, principal)));
    const refused = channels.filter((_, i) => !granted[i]);
    if (refused.length > 0) {
      throw new AppError('FORBIDDEN', `Not your channel: ${refused.join(', ')}.`, {
        field: 'channels',
        details: refused.map((channel) => ({ field: 'channels', message: `${channel} is not yours to follow` })),
      });
    }
    const unique = [...new Set(channels)];
    const { authKey, expiresAt } = keys.issue({
      userId: user.id,
      userPublicId: user.publicId,
      sessionPublicId: session.publicId,
      channels: unique,
    });
    return { auth_key: authKey, channels: unique, expiresAt: Math.floor(expiresAt / 1000) };
  };

  return {
    /** A key for `{id}`'s channels; without a list, the usual ones of that id. */
    async authorize(
      ctx: PersonContext,
      { id, channels }: { id: string; channels?: readonly string[] | undefined },
    ): Promise<PushAuthorization> {
      const { user } = ctx.auth;
      const own = id === user.publicId;
      const defaults = own
        ? [
            personalChannel('notifications', user.publicId),
            personalChannel('telegram', user.publicId),
            personalChannel('wallet', user.publicId),
          ]
        : [tradeChannel(id)];
      // A key for someone else's public id is never issued, whatever the list says.
      if (!own && id.startsWith('usr_')) throw new AppError('FORBIDDEN', 'Those are not your channels.');
      return grant(ctx, channels?.length ? channels : defaults);
    },

    renew(ctx: PersonContext, { channels }: { channels: readonly string[] }): Promise<PushAuthorization> {
      return grant(ctx, channels);
    },
  };
}

export type PushAuthorizer = ReturnType<typeof createPushAuthorizer>;
