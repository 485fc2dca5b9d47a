import { vValidator } from '@hono/valibot-validator';
import type { ValidationTargets } from 'hono';
import * as v from 'valibot';
import { type FieldIssue, invalidInput } from '../services/errors.ts';
import { errorResponse } from './errors.ts';

/** Valibot issues as the per-field details list of ERROR_INPUT_VALIDATION (spec section 8). */
export function fieldIssues(issues: readonly v.BaseIssue<unknown>[]): FieldIssue[] {
  return issues.map((issue) => ({ field: v.getDotPath(issue) ?? '', message: issue.message }));
}

export const validationError = invalidInput;

/** `vValidator` answering bad input with our error envelope instead of valibot's raw result. */
export function validate<T extends v.GenericSchema, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return vValidator(target, schema, (result, c) => {
    if (!result.success) return errorResponse(c, validationError(fieldIssues(result.issues)));
  });
}
