import { createHash } from 'node:crypto';

// What an idempotency key is bound to: a hash of the operation and its parameters, so the same
// key with other parameters is told apart from a retry.

/** JSON with sorted object keys, so equal parameters hash equally whatever their order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

export const fingerprintOf = (operation: string, params: Record<string, unknown>) =>
  createHash('sha256')
    .update(canonical({ operation, ...params }))
    .digest('hex');
