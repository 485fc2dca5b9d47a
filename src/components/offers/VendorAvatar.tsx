import type { CSSProperties } from 'react';

// A vendor's face in a listing row: the photo they uploaded, else their initial on a colour of
// their own (the same for a name wherever it shows), so rows tell people apart at a glance.
// Decorative: the name is written beside it.

/** A stable hue (0–359) from the name: one person keeps one colour. */
export function avatarHue(name: string): number {
  let hash = 0;
  for (const char of name.toLowerCase()) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 360;
  return hash;
}

/** The first letter, whatever the script (a surrogate pair stays whole). */
export const initialOf = (name: string): string => (Array.from(name)[0] ?? '?').toLocaleUpperCase();

export function VendorAvatar({ name, url }: { name: string; url: string | null }) {
  if (url) {
    return <img className="offer-avatar" src={url} alt="" width={32} height={32} loading="lazy" decoding="async" />;
  }
  return (
    <span className="offer-avatar" style={{ '--avatar-hue': avatarHue(name) } as CSSProperties} aria-hidden="true">
      {initialOf(name)}
    </span>
  );
}
