// The service's wire objects, as GET /v1/jobs/{id}, /result and the webhook
// deliveries answer them (see /v1/openapi.json for every field).

/** Where a job is: queued, running or terminal. */
export type Lifecycle = "queued" | "running" | "terminal";

/** How an ended job ended; null until it ends. */
export type Outcome = "succeeded" | "failed" | "cancelled" | "refused" | "never_admitted";

export interface Progress {
  done: number;
  /** null until the job has planned its work. */
  total: number | null;
  phase: string;
}

export interface Credits {
  credit_type: string;
  held: number;
  charged: number | null;
}

/** The error object of the spec, as a failed job or an error answer carries it. */
export interface ErrorObject {
  code: string;
  type: string;
  message: string;
  field?: string | null;
  retryable: boolean;
  docs?: string;
  request_id?: string | null;
  job_id?: string | null;
  required?: number;
  balance?: number;
  ctx?: Record<string, unknown>;
}

export interface Job {
  job_id: string;
  task: string;
  lifecycle: Lifecycle;
  outcome: Outcome | null;
  progress: Progress;
  error: ErrorObject | null;
  credits: Credits;
  api_key_id?: string | null;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  status_url: string;
  result_url: string;
  cancel_url: string;
  queue?: { position: number; eta_seconds: number | null } | null;
}

/** One output file of a job. */
export interface OutputFile {
  file: string;
  url: string;
  media_type: string;
  task: string;
  job_id: string;
  created_at: string;
  data: unknown;
  bytes: number;
  sha256: string | null;
}

/** A succeeded job's result: its files, every page joined by Client.result. */
export interface Result {
  job_id: string;
  files: OutputFile[];
  has_more: boolean;
  next_cursor?: string;
  summary?: unknown;
}

/** The body of a webhook delivery (and of a listen-stream delivery). */
export interface JobEvent {
  id: string;
  occurred_at: string;
  event: string;
  api_version: string;
  job_id?: string;
  task?: string;
  lifecycle?: Lifecycle;
  outcome?: Outcome | null;
  progress?: Progress;
  result?: Result;
  error?: ErrorObject;
}

/** The signed manifest of an ended job: what it delivered and was charged. */
export interface Manifest {
  iss: string;
  job_id: string;
  task: string;
  task_version: string;
  input_sha256: string;
  outcome: Outcome | null;
  created_at: string;
  ended_at: string | null;
  outputs: Array<{
    index: number;
    file: string;
    media_type: string;
    bytes: number;
    sha256: string | null;
    deleted?: boolean;
  }>;
  credits: Credits;
}

/** A JWS in its flattened JSON serialization, as GET /v1/jobs/{id}/manifest answers it. */
export interface ManifestJWS {
  protected: string;
  payload: string;
  signature: string;
}

export interface JWK {
  kty: string;
  crv: string;
  x: string;
  kid?: string;
  use?: string;
  alg?: string;
}

export interface JWKS {
  keys: JWK[];
}

export interface Estimate {
  task: string;
  credits: number;
  credit_type: string;
  outputs: number;
  price_per_output: number;
  valid_until: string;
}

/** A task's input: the JSON body its inputSchema describes. */
export type TaskInput = Record<string, unknown>;
