import { vValidator } from '@hono/valibot-validator';
import type { ValidationTargets } from 'hono';
import { resolver, uniqueSymbol } from 'hono-openapi';
import * as v from 'valibot';
import { type FieldIssue, invalidInput } from '../services/errors.ts';
import { errorResponse } from './errors.ts';

/** Valibot issues as the per-field details list of ERROR_INPUT_VALIDATION (spec section 8). */
export function fieldIssues(issues: readonly v.BaseIssue<unknown>[]): FieldIssue[] {
  return issues.map((issue) => ({ field: v.getDotPath(issue) ?? '', message: issue.message }));
}

export const validationError = invalidInput;

/** A text field of at most `max` characters, taken as sent. */
export const text = (max: number) =>
  v.pipe(v.string('must be text'), v.maxLength(max, `must be at most ${max} characters`));
/** The same, and it may be left out. */
export const optionalText = (max: number) => v.optional(text(max));
/** A text field that must say something: trimmed, then 1 to `max` characters. */
export const requiredText = (max: number) =>
  v.pipe(v.string('must be text'), v.trim(), v.minLength(1, 'is required'), v.maxLength(max, 'is too long'));

/** Amounts as text or numbers (gift-card clients send numbers, spec section 5), read as decimal text. */
export const decimalAmount = v.pipe(
  v.union([v.string(), v.number()], 'must be an amount'),
  v.transform(String),
  v.trim(),
  v.regex(/^\d{1,12}(?:\.\d{1,8})?$/, 'must be an amount such as 100 or 0.0015'),
);

/** The client's key of a money movement: a retry with it moves nothing twice. */
export const idempotencyKey = v.pipe(
  v.string('must be text'),
  v.regex(/^[A-Za-z0-9_-]{8,100}$/, 'must be 8 to 100 letters, digits, - or _'),
);

/** A reference table's id (currencies, methods, countries) as a number or its digits. */
export const referenceId = v.pipe(
  v.union([v.number(), v.pipe(v.string(), v.regex(/^\d{1,9}$/))], 'must be an id'),
  v.transform(Number),
  v.integer('must be an id'),
  v.minValue(1, 'must be an id'),
);

/** A yes or no as forms and clients send it: true/false, 1/0 or '1'/'0'. */
export const yesNo = v.pipe(
  v.union([v.boolean(), v.literal(0), v.literal(1), v.literal('0'), v.literal('1')], 'must be true or false'),
  v.transform((value) => value === true || value === 1 || value === '1'),
);

export function validate<T extends v.GenericSchema, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const middleware = vValidator(target, schema, (result, c) => {
    if (!result.success) return errorResponse(c, validationError(fieldIssues(result.issues)));
  });
  // The same schema describes the route's input in the OpenAPI document (server/http/openapi.ts):
  // the mark hono-openapi's own validator leaves, on ours.
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } });
}
