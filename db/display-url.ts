// Its own module: the configuration check prints URLs too, and must not load a database driver.

/** A database or Redis URL as a message may print it: a password in it replaced by `***`. */
export function displayUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@/\s]*@/i, '$1***@');
}
