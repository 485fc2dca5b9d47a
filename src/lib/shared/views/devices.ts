// The device review API's answer shape: the contract between server/services/devices/devices.ts,
// which builds it, and the page of the review link (src/pages/[...locale]/review-device.astro).

/** GET /rest/v1/castle/review-device/:token answers `{ device }`: the sign-in to review. */
export interface DeviceInfo {
  browser: string | null;
  version: string | null;
  os: string | null;
  ip: string;
  city: string | null;
  /** The country's name in the asked language (the row keeps the ISO code). */
  country: string | null;
  /** ISO 8601: when the sign-in happened. */
  date: string;
}
