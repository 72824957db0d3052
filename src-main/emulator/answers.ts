// What a route hands back to the server: a status, a body and its type. The server writes it (or a fault does).
import { randomBytes } from 'node:crypto';

export interface Answer {
  status: number;
  body: Buffer;
  contentType: string;
  headers?: Record<string, string>;
}

/** The API's error codes, as the seed (7.1, 7.2) and docs/nadeo-api.md give them. */
export const API_ERROR = {
  validation: { code: 'C-AA-00-03', message: 'There was a validation error.' },
  notFound: { code: 'C-AL-02-03', message: 'Not Found' },
  forbidden: { code: 'C-AA-00-19', message: 'Forbidden.' },
  // Not shown by the seed or the docs: an emulator choice, in the same shape.
  unauthorized: { code: 'C-AA-00-01', message: 'Unauthorized.' },
} as const;

/** Seed 7.1: an info object on the map lookup, an array of strings on the records lookup. */
export type ErrorInfo = Record<string, string> | string[];

export function json(status: number, value: unknown, headers?: Record<string, string>): Answer {
  return { status, body: Buffer.from(JSON.stringify(value), 'utf8'), contentType: 'application/json; charset=utf-8', ...(headers ? { headers } : {}) };
}

export function text(status: number, body: string, headers?: Record<string, string>): Answer {
  return { status, body: Buffer.from(body, 'utf8'), contentType: 'text/plain; charset=utf-8', ...(headers ? { headers } : {}) };
}

export function bytes(body: Buffer, contentType: string): Answer {
  return { status: 200, body, contentType };
}

/** 302 to where the file really is: the successor map-info routes' file addresses answer this (docs/nadeo-api.md). */
export function redirect(location: string): Answer {
  return { status: 302, body: Buffer.alloc(0), contentType: 'text/plain; charset=utf-8', headers: { Location: location } };
}

/** Exactly the seed's error fields: code, correlation_id (fresh hex per answer), message, and info only when given. */
export function apiError(status: number, error: { code: string; message: string }, info?: ErrorInfo): Answer {
  const body: { code: string; correlation_id: string; message: string; info?: ErrorInfo } = {
    code: error.code,
    correlation_id: randomBytes(16).toString('hex'),
    message: error.message,
  };
  if (info !== undefined) body.info = info;
  return json(status, body);
}

// The seed shows no HTTP status for its validation and not-found errors; 400 and 404 are what such errors use.
export function validationError(info: ErrorInfo): Answer {
  return apiError(400, API_ERROR.validation, info);
}

export function notFoundError(): Answer {
  return apiError(404, API_ERROR.notFound);
}

/** A 404 that is NOT one of the API's errors: what a removed or unknown route answers. */
export function noRoute(): Answer {
  return json(404, { message: 'No route found' });
}
