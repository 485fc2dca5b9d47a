import { describe, expect, it } from 'vitest';
import { toPostgres, valuesFor } from '../../db/sql-text.ts';

// The repositories' SQL, written once in SQLite's parameter style, as PostgreSQL receives it.

describe('toPostgres', () => {
  it('numbers positional parameters in order and leaves literals, quoted names and comments alone', () => {
    const out = toPostgres(
      `SELECT a, '?' AS q, "we?ird" FROM t -- why?\nWHERE a = ? AND b = ? /* ? */ AND c::text = 'x'`,
    );
    expect(out.text).toBe(
      `SELECT a, '?' AS q, "we?ird" FROM t -- why?\nWHERE a = $1 AND b = $2 /* ? */ AND c::text = 'x'`,
    );
    expect(out.names).toEqual([]);
  });

  it('gives each named parameter one number, however often it appears, in @ and : styles', () => {
    const out = toPostgres('UPDATE t SET a = @a, b = :userId WHERE c = @a AND d = @since');
    expect(out.text).toBe('UPDATE t SET a = $1, b = $2 WHERE c = $1 AND d = $3');
    expect(valuesFor(out, [{ a: 1, userId: 2, since: 3 }])).toEqual([1, 2, 3]);
  });

  it('quotes camelCase aliases, which PostgreSQL would fold to lower case', () => {
    expect(toPostgres('SELECT owner_id AS ownerId, id AS id, x AS "already" FROM t').text).toBe(
      'SELECT owner_id AS "ownerId", id AS id, x AS "already" FROM t',
    );
  });

  it('doubles quotes inside literals like SQL does, without losing track of what is quoted', () => {
    expect(toPostgres("SELECT 'it''s ?' AS a, ? AS b").text).toBe("SELECT 'it''s ?' AS a, $1 AS b");
  });

  it('refuses a statement that mixes both styles, and a missing named value', () => {
    expect(() => toPostgres('SELECT ? , @a')).toThrow('mixes');
    expect(() => valuesFor(toPostgres('SELECT @a'), [{}])).toThrow('@a');
  });

  it('binds booleans as the 1 and 0 SQLite stores', () => {
    expect(valuesFor(toPostgres('SELECT ?, ?'), [true, false])).toEqual([1, 0]);
  });
});
