import { interpolate, type MessageParams } from './interpolate.ts';

// Islands get their messages as a prop: the page picks the keys an island uses from the reader's
// catalogue (pickMessages in messages.ts) and the island translates with this, so the browser
// downloads one language's few strings, never the catalogues.

export type IslandMessages = Record<string, string>;

export function islandTranslator(messages: IslandMessages) {
  /** The message, or the key itself when the page forgot to pass it (visible, never blank). */
  return (key: string, params?: MessageParams): string => {
    const template = messages[key];
    return template === undefined ? key : interpolate(template, params);
  };
}
