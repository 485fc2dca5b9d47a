// Statements are written once, in the SQL both engines accept, with SQLite's parameter style
// (`?` in order, or `@name`). For PostgreSQL they are rewritten here: parameters become `$1…$n`,
// and a camelCase alias (`owner_id AS ownerId`) is quoted, because PostgreSQL folds unquoted names
// to lower case and the repositories read rows by those aliases. String literals, quoted
// identifiers and comments are copied untouched.

export interface PostgresText {
  text: string;
  /** For `@name` parameters: the name behind each `$n`, in order. Empty for positional `?`. */
  names: string[];
}

const WORD = /[A-Za-z0-9_]/;

/** The end (exclusive) of the literal, quoted name or comment starting at `i`, or -1 if none starts there. */
function skipQuoted(sql: string, i: number): number {
  const c = sql[i];
  if (c === "'" || c === '"') {
    let j = i + 1;
    while (j < sql.length) {
      if (sql[j] === c) {
        if (sql[j + 1] === c) j += 2;
        else return j + 1;
      } else j++;
    }
    return sql.length;
  }
  if (c === '-' && sql[i + 1] === '-') {
    const end = sql.indexOf('\n', i);
    return end === -1 ? sql.length : end;
  }
  if (c === '/' && sql[i + 1] === '*') {
    const end = sql.indexOf('*/', i + 2);
    return end === -1 ? sql.length : end + 2;
  }
  return -1;
}

/** Quotes `AS someName` when the alias has a capital letter (PostgreSQL would fold it). */
function quoteAliases(sql: string): string {
  return sql.replace(/\bAS\s+([a-z_][a-z0-9_]*[A-Z][A-Za-z0-9_]*)\b/g, 'AS "$1"');
}

/** SQLite-style parameters and aliases as PostgreSQL wants them. */
export function toPostgres(sql: string): PostgresText {
  let out = '';
  const names: string[] = [];
  let positional = 0;
  let i = 0;
  let plain = '';
  const flush = () => {
    out += quoteAliases(plain);
    plain = '';
  };
  while (i < sql.length) {
    const end = skipQuoted(sql, i);
    if (end !== -1) {
      flush();
      out += sql.slice(i, end);
      i = end;
      continue;
    }
    const c = sql[i] as string;
    if (c === '?') {
      plain += `$${++positional}`;
      i++;
    } else if ((c === '@' || c === ':') && WORD.test(sql[i + 1] ?? '') && !(c === ':' && sql[i - 1] === ':')) {
      let j = i + 1;
      while (j < sql.length && WORD.test(sql[j] as string)) j++;
      const name = sql.slice(i + 1, j);
      if (c === ':' && /^\d/.test(name)) {
        plain += sql.slice(i, j);
      } else {
        let index = names.indexOf(name);
        if (index === -1) index = names.push(name) - 1;
        plain += `$${index + 1}`;
      }
      i = j;
    } else {
      plain += c;
      i++;
    }
  }
  flush();
  if (positional > 0 && names.length > 0) throw new Error('A statement mixes `?` and named parameters.');
  return { text: out, names };
}

/** The values for a rewritten statement: positional arguments as given, named ones in `$n` order. */
export function valuesFor(statement: PostgresText, args: readonly unknown[]): unknown[] {
  if (statement.names.length === 0) return args.map(toDriver);
  const named = (args[0] ?? {}) as Record<string, unknown>;
  return statement.names.map((name) => {
    if (!(name in named)) throw new Error(`Missing value for the parameter @${name}.`);
    return toDriver(named[name]);
  });
}

/** better-sqlite3 binds booleans as 1/0; the PostgreSQL columns that hold them are smallints too. */
function toDriver(value: unknown): unknown {
  return typeof value === 'boolean' ? (value ? 1 : 0) : value;
}
