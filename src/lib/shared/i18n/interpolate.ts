// `{name}` placeholders, shared by the catalogues (messages.ts, server side) and the islands'
// translators (island-messages.ts), which must not import the catalogues.

export type MessageParams = Record<string, string | number>;

/** Replaces `{name}` placeholders; an unknown placeholder stays visible so a test can catch it. */
export function interpolate(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
