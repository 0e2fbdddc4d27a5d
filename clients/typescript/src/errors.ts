import type { ErrorObject } from "./types.js";

/**
 * An error the service answered (or a job's error): the spec's error
 * object with the answer's status. Branch on `code` (stable), or on the
 * subclass, which follows `type`; `message` is free text.
 */
export class ApiError extends Error {
  /** The HTTP status of the answer; 0 for a job's error read from the job. */
  readonly status: number;
  readonly code: string;
  readonly type: string;
  readonly field: string | null;
  readonly retryable: boolean;
  readonly docs: string | null;
  readonly requestId: string | null;
  readonly jobId: string | null;
  /** Seconds the answer asked to wait (Retry-After or ctx.retry_after), if any. */
  readonly retryAfter: number | null;
  /** The whole error object as answered. */
  readonly raw: ErrorObject;

  constructor(raw: ErrorObject, status: number, retryAfter: number | null = null) {
    super(`${raw.code}${raw.field ? ` (field ${raw.field})` : ""}: ${raw.message}`);
    this.name = new.target.name;
    this.raw = raw;
    this.status = status;
    this.code = raw.code;
    this.type = raw.type;
    this.field = raw.field ?? null;
    this.retryable = raw.retryable;
    this.docs = raw.docs ?? null;
    this.requestId = raw.request_id ?? null;
    this.jobId = raw.job_id ?? null;
    this.retryAfter = retryAfter;
  }
}

/** type invalid_request: the request is wrong; `field` names the input. */
export class InvalidRequestError extends ApiError {}
/** type authentication: no key, or a malformed, revoked or expired one. */
export class AuthenticationError extends ApiError {}
/** type permission: the key or plan may not do this. */
export class PermissionError extends ApiError {}
/** type not_found. */
export class NotFoundError extends ApiError {}
/** type conflict: idempotency key reused, job already ended, result not ready, cancelled. */
export class ConflictError extends ApiError {}
/** type credits: insufficient_credits (`required`, `balance`), spend limits. */
export class CreditsError extends ApiError {
  get required(): number | undefined {
    return this.raw.required ?? (this.raw.ctx?.["required"] as number | undefined);
  }
  get balance(): number | undefined {
    return this.raw.balance ?? (this.raw.ctx?.["balance"] as number | undefined);
  }
}
/** type rate_limited: wait `retryAfter` seconds. */
export class RateLimitError extends ApiError {}
/** type internal, and an answer without an error object (a proxy's). */
export class InternalError extends ApiError {}

const byType: Record<string, typeof ApiError> = {
  invalid_request: InvalidRequestError,
  authentication: AuthenticationError,
  permission: PermissionError,
  not_found: NotFoundError,
  conflict: ConflictError,
  credits: CreditsError,
  rate_limited: RateLimitError,
  internal: InternalError,
};

/** The error class of an error object, by its type (ApiError for a type this client does not know). */
export function errorFor(raw: ErrorObject, status: number, retryAfter: number | null = null): ApiError {
  const Class = byType[raw.type] ?? ApiError;
  return new Class(raw, status, retryAfter);
}

/** Whether err is an ApiError with code. */
export function isCode(err: unknown, code: string): err is ApiError {
  return err instanceof ApiError && err.code === code;
}

/** A connection refused or a host that does not resolve: not retried. */
export class UnreachableError extends Error {
  readonly url: string;
  constructor(url: string, cause: unknown) {
    super(`cannot reach ${url}: is the service running there?`, { cause });
    this.name = "UnreachableError";
    this.url = url;
  }
}

/** A webhook delivery or manifest that does not verify. */
export class VerificationError extends Error {
  /** stale: timestamp outside the window; bad_signature; missing_headers; malformed. */
  readonly reason: "stale" | "bad_signature" | "missing_headers" | "malformed";
  constructor(reason: VerificationError["reason"], message: string) {
    super(message);
    this.name = "VerificationError";
    this.reason = reason;
  }
}
