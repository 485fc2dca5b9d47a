import type { ServiceContext } from '../context.ts';
import { DEVICES_BUS_CHANNEL, type DeviceBusEvent } from '../notifications/trade-events.ts';
import { countryName } from './geolocation.ts';
import { hashToken, TOKEN_PATTERN } from './review-token.ts';
import type { DeviceClient, DeviceReviewParts } from './types.ts';
import { parseUserAgent } from './user-agent.ts';

/** " (City, Country)" and DB-IP's credit, once the row's lookup is done; empty when unknown. */
async function whereFrom({ repo, log, placing }: DeviceReviewParts, token: string) {
  let where = '';
  let credit = '';
  try {
    // What the review page will show: the stored row, once its lookup is done. Every mail is
    // written in English (none uses the account's `locale` yet), and so is the country's name.
    await placing.get(token);
    const row = TOKEN_PATTERN.test(token) ? await repo.pendingByToken(hashToken(token), 0) : undefined;
    const country = row?.country ? countryName(row.country) : null;
    if (country) {
      where = ` (${[row?.city, country].filter(Boolean).join(', ')})`;
      // DB-IP's licence (CC BY 4.0) asks for attribution wherever its results are shown.
      credit = '\nLocation: IP Geolocation by DB-IP, https://db-ip.com\n';
    }
  } catch (error) {
    log('could not read the device location for the e-mail', error);
  }
  return { where, credit };
}

/** After the commit: a mail server that is down must not undo a sign-in. */
export async function mailReview(
  parts: DeviceReviewParts,
  _ctx: ServiceContext,
  {
    user,
    token,
    client,
  }: { user: { id?: number; email: string; username: string }; token: string; client: DeviceClient },
) {
  const { mailer, now, log, bus, siteOrigin } = parts;
  const { browser, version, os } = parseUserAgent(client.userAgent);
  // The bell too (device_review), for the account's other open pages; the sign-in has committed.
  if (bus && user.id !== undefined) {
    const event: DeviceBusEvent = {
      type: 'device.review_requested',
      payload: { userId: user.id, browser, os, ip: client.ip, at: now() },
    };
    bus.publish(DEVICES_BUS_CHANNEL, event);
  }
  const what = [browser && `${browser}${version ? ` ${version}` : ''}`, os && `on ${os}`].filter(Boolean).join(' ');
  const link = siteOrigin.url(`/review-device?token=${token}`);
  const { where, credit } = await whereFrom(parts, token);
  try {
    await mailer.send({
      to: user.email,
      subject: 'New sign-in to your Coinfair account',
      text: `Hello ${user.username},\n\nYour account was just signed in from a new device: ${what || 'an unknown browser'}, address ${client.ip}${where}.\n\nWas it you? Confirm or report it here:\n${link}\n\nReporting it signs that device out; if it was not you, change your password too. The link works for 7 days.\n${credit}`,
    });
  } catch (error) {
    log('could not send the device review e-mail', error);
  }
}
