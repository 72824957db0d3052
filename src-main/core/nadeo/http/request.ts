// What a request is and what its raw answer is: the shapes the pipeline (pipeline.ts) sends and the answers' readers
// (answers.ts) read, apart from both so that neither imports the other back.
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

export type BodyReadable = Dispatcher.ResponseData['body'];

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: BodyReadable;
}

export type AuthKind = 'nadeo' | 'oauth';

export interface RequestSpec<T> {
  method: 'GET' | 'POST';
  /** scheme://host[:port] */
  origin: string;
  /** Path and query exactly as sent (the request-target the URI limit applies to). */
  target: string;
  /** Label for stats and errors: method and path template, never a query string. */
  route: string;
  auth?: AuthKind;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
  /** This request's deadline for its whole answer, when not the pipeline's (downloads are bigger). */
  deadlineMs?: number | undefined;
  /**
   * A 404/410 means the route was removed (API routes only), unless its body carries one of `ownNotFoundCodes`:
   * only the endpoint's own documented answer proves the route alive, not any API-looking error body.
   */
  detectGoneRoute?: boolean;
  /** API error codes the endpoint itself documents for a 404/410 (the records lookup's not-found `C-AL-02-03`). */
  ownNotFoundCodes?: readonly string[];
  /** Reads the answer; throw a NadeoError to fail the attempt (retryable ones are retried). */
  handle: (res: RawResponse, signal: AbortSignal) => Promise<T>;
}
