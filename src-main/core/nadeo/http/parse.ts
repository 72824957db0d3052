// Reading a body with a zod schema (a SchemaError naming the first bad field), and the Nadeo API's error body (seed
// section 7) that every service's error answers are read for.
import { z } from 'zod';
import { SchemaError, type ApiErrorBody } from './errors.ts';

export const ApiErrorWire = z.looseObject({
  code: z.string(),
  correlation_id: z.string().optional(),
  message: z.string().optional(),
  info: z.union([z.record(z.string(), z.unknown()), z.array(z.string())]).optional(),
});

/** `records[3].recordScore.time` from a zod path under a named root. */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    let received: string;
    if (value === undefined) received = 'missing';
    else if (value === null) received = 'null';
    else if (Array.isArray(value)) received = 'an array';
    else received = typeof value;
    return `expected ${issue.expected}, got ${received}`;
  }
  return issue.message;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Parses with `schema` or throws a SchemaError naming the first bad field under `root`. */
export function parseBody<S extends z.ZodType>(schema: S, data: unknown, route: string, root: string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new SchemaError(route, root || '(body)', 'invalid');
  throw new SchemaError(route, formatPath(root, issue.path), describeIssue(issue, valueAt(data, issue.path)));
}

/** The API's error body when `data` is one, else undefined (a proxy's HTML page, an empty body...). */
export function readApiError(data: unknown): ApiErrorBody | undefined {
  const result = ApiErrorWire.safeParse(data);
  return result.success ? (result.data as ApiErrorBody) : undefined;
}

/** API error codes look like `C-AA-00-03`; anything else in a 404/410 is a proxy or a removed route. */
export function isApiErrorCode(code: string | undefined): boolean {
  return code !== undefined && /^[A-Z]-[A-Z]{2}-\d{2}-\d{2}$/.test(code);
}
