// Avatar upload rules (spec section 5: jpeg, png or jpg), shared by the settings form (a check
// before sending) and the server (the rule: server/services/avatar). Isomorphic.

/** 5 MiB: a phone photo fits; the avatar is 256×256 anyway. */
export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** What the file picker offers; the server decides by the bytes, not by these. */
export const AVATAR_ACCEPT = 'image/jpeg,image/png,.jpg,.jpeg,.png';

/** A cheap look at a chosen file before upload: its declared type, else its name. */
export function looksLikeAvatarImage(file: { type: string; name: string }): boolean {
  if (file.type) return file.type === 'image/jpeg' || file.type === 'image/png';
  return /\.(?:jpe?g|png)$/i.test(file.name);
}
