import { ApiError, InternalError, UnreachableError, errorFor } from "./errors.js";
import type { ErrorObject, Estimate, Job, ManifestJWS, OutputFile, Result, TaskInput } from "./types.js";

/** The address `make run` serves the API on. */
export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
/** The longest wait between two tries of a call, in milliseconds (the spec's cap). */
export const MAX_BACKOFF_MS = 60_000;

export interface ClientOptions {
  /** The API's address without /v1; TP_BASE_URL, else DEFAULT_BASE_URL. */
  baseURL?: string;
  /** The API key; TP_API_KEY when not given. */
  apiKey?: string;
  /** How many times one call is tried (default 6). */
  maxAttempts?: number;
  /** The first retry's wait in ms (default 500); each retry doubles it, with jitter. */
  backoffMs?: number;
  /** The cap of a retry's wait in ms (default and at most 60 000). */
  maxBackoffMs?: number;
  /** Pins the dated contract version (Service-Version). */
  serviceVersion?: string;
  /** A fetch to call instead of the platform's. */
  fetch?: typeof fetch;
}

export interface SubmitOptions {
  /** Ask the service to answer the result itself when the job ends within this many seconds (Prefer: wait=N). */
  waitSeconds?: number;
  /** Makes a resubmit land on the same job; a UUID v4 is generated when absent, the same for every retry. */
  idempotencyKey?: string;
  /** Fail the job start_timeout when it cannot start within this many seconds. */
  startTimeoutSeconds?: number;
  /** An https URL that receives the job's terminal event. */
  webhookURL?: string;
  /** The most credits the job may hold (X-Service-Max-Credits). */
  maxCredits?: number;
  signal?: AbortSignal;
}

/** The answer of a submit: the job's handle (202), or its result when the service waited (200). */
export interface Submission {
  jobId: string;
  job: Job | null;
  result: Result | null;
  /** Credits held for the job (X-Service-Credits), when the task costs credits. */
  credits: number | null;
  creditType: string | null;
  /** The key sent: submit again with it to reach the same job. */
  idempotencyKey: string;
}

export interface WaitOptions {
  /** Called with the job at every read that shows progress. */
  onProgress?: (job: Job) => void;
  /** The first wait between two reads in ms (default 500); it grows to pollMaxMs. */
  pollMs?: number;
  /** The longest wait between two reads in ms (default 5 000). */
  pollMaxMs?: number;
  signal?: AbortSignal;
}

export interface RunOptions extends SubmitOptions, Omit<WaitOptions, "signal"> {
  /** A folder that receives every result file as {job}_{index}.{ext} (Node, Deno, Bun). */
  downloadDir?: string;
}

export interface RunResult {
  result: Result;
  /** The saved files' paths, with downloadDir. */
  paths: string[];
}

/** One delivery of the listen stream (GET /v1/events): what a webhook endpoint would receive. */
export interface ListenDelivery {
  id: string;
  event: string;
  headers: Record<string, string>;
  /** The raw signed body. */
  body: string;
}

export interface Page<T> {
  items: T[];
  has_more: boolean;
  next_cursor?: string;
}

interface Call {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

const retriedWithoutObject = new Set([429, 500, 502, 503, 504]);
const unreachableCodes = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** Env reads TP_BASE_URL / TP_API_KEY where a process environment exists. */
function env(name: string): string | undefined {
  const p = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return p?.env?.[name] || undefined;
}

/** sleep waits ms, or rejects when signal aborts. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function causeCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The error of an ended job that failed or was cancelled, as an ApiError; null otherwise. */
export function jobError(job: Job): ApiError | null {
  if (job.outcome === null || job.outcome === "succeeded") return null;
  const raw: ErrorObject = job.error ?? {
    code: job.outcome,
    type: "conflict",
    message: `The job ended ${job.outcome}.`,
    retryable: false,
  };
  return errorFor({ ...raw, job_id: raw.job_id ?? job.job_id }, 0);
}

/**
 * A client of the task platform API with one key. The spec's retry rules
 * are built in: an answer with an error object is retried only when it
 * says retryable; 429, 500, 502, 503 and 504 without one and network
 * errors are retried; exponential backoff with jitter capped at 60 s;
 * Retry-After honoured; a POST is resent with the same Idempotency-Key.
 */
export class Client {
  readonly baseURL: string;
  readonly #key: string;
  readonly #maxAttempts: number;
  readonly #backoffMs: number;
  readonly #maxBackoffMs: number;
  readonly #version: string | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions = {}) {
    this.baseURL = (options.baseURL ?? env("TP_BASE_URL") ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    const key = options.apiKey ?? env("TP_API_KEY");
    if (!key) throw new Error("no API key: pass apiKey or set TP_API_KEY");
    this.#key = key;
    this.#maxAttempts = Math.max(1, options.maxAttempts ?? 6);
    this.#backoffMs = options.backoffMs ?? 500;
    this.#maxBackoffMs = Math.min(options.maxBackoffMs ?? MAX_BACKOFF_MS, MAX_BACKOFF_MS);
    this.#version = options.serviceVersion;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** The wait before try attempt+2: exponential, capped, between half and all of it. */
  backoff(attempt: number): number {
    const d = Math.min(this.#backoffMs * 2 ** Math.min(attempt, 20), this.#maxBackoffMs);
    return d / 2 + Math.random() * (d / 2);
  }

  async #send(url: string, c: Call): Promise<Response> {
    const headers: Record<string, string> = { "User-Agent": "taskplatform-typescript", ...c.headers };
    if (url.startsWith(this.baseURL + "/")) headers["Authorization"] = `Key ${this.#key}`;
    if (c.body !== undefined) headers["Content-Type"] = "application/json";
    if (this.#version) headers["Service-Version"] = this.#version;
    const init: RequestInit = { method: c.method, headers };
    if (c.body !== undefined) init.body = c.body;
    if (c.signal) init.signal = c.signal;
    return this.#fetch(url, init);
  }

  /** errorOf reads an error answer and says whether to retry it. */
  async #errorOf(res: Response): Promise<[ApiError, boolean]> {
    const text = await res.text().catch(() => "");
    let obj: ErrorObject | undefined;
    try {
      const parsed = JSON.parse(text) as { error?: ErrorObject };
      if (parsed && typeof parsed.error?.code === "string" && parsed.error.code) obj = parsed.error;
    } catch {
      // not JSON: a proxy's answer
    }
    let retryAfter: number | null = null;
    const header = res.headers.get("Retry-After");
    if (header !== null && /^\d+$/.test(header.trim())) retryAfter = Number(header.trim());
    else if (typeof obj?.ctx?.["retry_after"] === "number") retryAfter = obj.ctx["retry_after"] as number;
    if (obj) {
      const raw = { ...obj, request_id: obj.request_id ?? res.headers.get("X-Request-ID") };
      return [errorFor(raw, res.status, retryAfter), obj.retryable];
    }
    const raw: ErrorObject = {
      code: `http_${res.status}`,
      type: "internal",
      message: (text.trim() || res.statusText || `HTTP ${res.status}`).slice(0, 200),
      retryable: retriedWithoutObject.has(res.status),
      request_id: res.headers.get("X-Request-ID"),
    };
    return [new InternalError(raw, res.status, retryAfter), raw.retryable];
  }

  /** Sends c (or the absolute url) under the retry rules and answers the first answer that is not an error. */
  async #do(c: Call, absolute?: string): Promise<Answer> {
    const url = absolute ?? this.baseURL + c.path;
    for (let attempt = 0; ; attempt++) {
      let wait = 0;
      try {
        const res = await this.#send(url, c);
        if (res.status < 400) {
          return { status: res.status, headers: res.headers, body: new Uint8Array(await res.arrayBuffer()) };
        }
        const [err, retry] = await this.#errorOf(res);
        if (!retry || attempt + 1 >= this.#maxAttempts) throw err;
        wait = (err.retryAfter ?? 0) * 1000;
      } catch (err) {
        if (err instanceof ApiError) throw err;
        if (c.signal?.aborted) throw c.signal.reason;
        if (unreachableCodes.has(causeCode(err) ?? "")) throw new UnreachableError(url, err);
        if (attempt + 1 >= this.#maxAttempts) throw err;
      }
      await sleep(wait > 0 ? wait : this.backoff(attempt), c.signal);
    }
  }

  async #json<T>(c: Call): Promise<T> {
    const a = await this.#do(c);
    return JSON.parse(new TextDecoder().decode(a.body)) as T;
  }

  /** Submits task with input. A job that fails or is cancelled while the service waits throws its ApiError. */
  async submit(task: string, input: TaskInput, options: SubmitOptions = {}): Promise<Submission> {
    const key = options.idempotencyKey ?? crypto.randomUUID();
    const headers: Record<string, string> = { "Idempotency-Key": key };
    if (options.waitSeconds) headers["Prefer"] = `wait=${Math.ceil(options.waitSeconds)}`;
    if (options.startTimeoutSeconds) headers["X-Service-Start-Timeout"] = String(Math.ceil(options.startTimeoutSeconds));
    if (options.maxCredits) headers["X-Service-Max-Credits"] = String(options.maxCredits);
    let path = `/v1/tasks/${encodeURIComponent(task)}`;
    if (options.webhookURL) path += `?webhook_url=${encodeURIComponent(options.webhookURL)}`;
    const a = await this.#do({ method: "POST", path, body: JSON.stringify(input), headers, signal: options.signal });
    const parsed = JSON.parse(new TextDecoder().decode(a.body)) as Job & Result;
    const credits = a.headers.get("X-Service-Credits");
    return {
      jobId: parsed.job_id,
      job: a.status === 200 ? null : (parsed as Job),
      result: a.status === 200 ? (parsed as Result) : null,
      credits: credits === null ? null : Number(credits),
      creditType: a.headers.get("X-Service-Credit-Type"),
      idempotencyKey: key,
    };
  }

  /** Validates input as a submit does and answers its cost ceiling; no job starts. */
  estimate(task: string, input: TaskInput, signal?: AbortSignal): Promise<Estimate> {
    const path = `/v1/tasks/${encodeURIComponent(task)}/estimate`;
    return this.#json<Estimate>({ method: "POST", path, body: JSON.stringify(input), signal });
  }

  /** Reads a job: lifecycle, outcome, progress and error. */
  job(jobId: string, signal?: AbortSignal): Promise<Job> {
    return this.#json<Job>({ method: "GET", path: `/v1/jobs/${encodeURIComponent(jobId)}`, signal });
  }

  /** One page of the account's jobs, newest first. */
  jobsPage(limit?: number, cursor?: string, signal?: AbortSignal): Promise<Page<Job>> {
    const q = new URLSearchParams();
    if (limit) q.set("limit", String(limit));
    if (cursor) q.set("cursor", cursor);
    const qs = q.toString();
    return this.#json<Page<Job>>({ method: "GET", path: `/v1/jobs${qs ? "?" + qs : ""}`, signal });
  }

  /** Every job of the account, newest first, fetching pages as the loop asks for them. */
  async *jobs(options: { pageSize?: number; signal?: AbortSignal } = {}): AsyncGenerator<Job> {
    let cursor: string | undefined;
    for (;;) {
      const page = await this.jobsPage(options.pageSize, cursor, options.signal);
      yield* page.items;
      if (!page.has_more || !page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  /** The outputs a job delivered, in the task's order, whatever its outcome, page by page. */
  async *files(jobId: string, options: { pageSize?: number; signal?: AbortSignal } = {}): AsyncGenerator<OutputFile> {
    let cursor: string | undefined;
    for (;;) {
      const q = new URLSearchParams({ limit: String(options.pageSize ?? 100) });
      if (cursor) q.set("cursor", cursor);
      const path = `/v1/jobs/${encodeURIComponent(jobId)}/files?${q}`;
      const page = await this.#json<Page<OutputFile>>({ method: "GET", path, signal: options.signal });
      yield* page.items;
      if (!page.has_more || !page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  /**
   * A succeeded job's result, every page of files joined. A failed job
   * throws ConflictError job_failed, a cancelled one cancelled, one still
   * running result_not_ready.
   */
  async result(jobId: string, signal?: AbortSignal): Promise<Result> {
    let all: Result | undefined;
    let cursor: string | undefined;
    for (;;) {
      const q = new URLSearchParams({ limit: "100" });
      if (cursor) q.set("cursor", cursor);
      const path = `/v1/jobs/${encodeURIComponent(jobId)}/result?${q}`;
      const page = await this.#json<Result>({ method: "GET", path, signal });
      if (all) all.files.push(...page.files);
      else all = page;
      if (!page.has_more || !page.next_cursor) {
        all.has_more = false;
        delete all.next_cursor;
        return all;
      }
      cursor = page.next_cursor;
    }
  }

  /** Asks a job to stop; an ended job throws ConflictError job_already_ended. */
  cancel(jobId: string, signal?: AbortSignal): Promise<{ job_id: string; lifecycle: string; outcome: string | null }> {
    return this.#json({ method: "PUT", path: `/v1/jobs/${encodeURIComponent(jobId)}/cancel`, signal });
  }

  /** The signed manifest of an ended job; check it with Verifier.verifyManifest before trusting it. */
  manifest(jobId: string, signal?: AbortSignal): Promise<ManifestJWS> {
    return this.#json<ManifestJWS>({ method: "GET", path: `/v1/jobs/${encodeURIComponent(jobId)}/manifest`, signal });
  }

  /**
   * Follows a job until it ends and answers its final record, reading it
   * at growing intervals (each read under the retry rules). A job that
   * failed or was cancelled throws its ApiError (jobError), carrying the
   * job id.
   */
  async wait(jobId: string, options: WaitOptions = {}): Promise<Job> {
    let interval = options.pollMs ?? 500;
    const max = options.pollMaxMs ?? 5000;
    let seen = -1;
    for (;;) {
      const job = await this.job(jobId, options.signal);
      if (options.onProgress && job.progress.done !== seen) {
        seen = job.progress.done;
        options.onProgress(job);
      }
      if (job.lifecycle === "terminal") {
        const err = jobError(job);
        if (err) throw err;
        return job;
      }
      await sleep(interval, options.signal);
      interval = Math.min(interval * 2, max);
    }
  }

  /**
   * A submit, a wait and the result in one call: it asks the service to
   * wait up to a minute, follows the job until it ends and answers its
   * result, every page; with downloadDir it saves every file.
   */
  async run(task: string, input: TaskInput, options: RunOptions = {}): Promise<RunResult> {
    const sub = await this.submit(task, input, { waitSeconds: 60, ...options });
    let result = sub.result;
    if (!result || result.has_more) {
      const waitOptions: WaitOptions = {};
      if (options.onProgress) waitOptions.onProgress = options.onProgress;
      if (options.signal) waitOptions.signal = options.signal;
      await this.wait(sub.jobId, waitOptions);
      result = await this.result(sub.jobId, options.signal);
    }
    const paths: string[] = [];
    if (options.downloadDir) {
      const fs = await import("node:fs/promises");
      const path = await import("node:path");
      await fs.mkdir(options.downloadDir, { recursive: true });
      for (const [i, f] of result.files.entries()) {
        const p = path.join(options.downloadDir, `${result.job_id}_${i}${extension(f)}`);
        await fs.writeFile(p, await this.download(f.url, options.signal));
        paths.push(p);
      }
    }
    return { result, paths };
  }

  /** The bytes of an output's url (the key is sent only to this service), under the retry rules. */
  async download(url: string, signal?: AbortSignal): Promise<Uint8Array> {
    const a = await this.#do({ method: "GET", path: "", signal }, new URL(url, this.baseURL + "/").toString());
    return a.body;
  }

  /**
   * The account's job events as signed webhook deliveries (GET /v1/events),
   * from the moment the stream opens. Verify each with
   * Verifier.verify(headers, body) as a webhook endpoint would. A stream
   * the service ends is opened again at once (events in between are not
   * sent again); the loop ends when signal aborts or the caller breaks out.
   */
  async *listen(signal?: AbortSignal): AsyncGenerator<ListenDelivery> {
    // The service ends a stream after limits.event_streams.max_seconds: open the next one at once.
    while (!signal?.aborted) yield* this.#listenOnce(signal);
  }

  async *#listenOnce(signal?: AbortSignal): AsyncGenerator<ListenDelivery> {
    const res = await this.#send(this.baseURL + "/v1/events", {
      method: "GET",
      path: "/v1/events",
      headers: { Accept: "text/event-stream" },
      signal,
    });
    if (res.status !== 200) throw (await this.#errorOf(res))[0];
    if (!res.body) return;
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    let id = "";
    let event = "";
    let data: string[] = [];
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let nl: number;
        while ((nl = buffer.indexOf("\n")) >= 0) {
          const line = buffer.slice(0, nl).replace(/\r$/, "");
          buffer = buffer.slice(nl + 1);
          if (line === "") {
            if (data.length > 0) {
              const frame = JSON.parse(data.join("\n")) as { headers: Record<string, string>; body: string };
              yield { id, event, headers: frame.headers, body: frame.body };
            }
            id = event = "";
            data = [];
            continue;
          }
          if (line.startsWith(":")) continue;
          const colon = line.indexOf(":");
          const field = colon < 0 ? line : line.slice(0, colon);
          const v = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") id = v;
          else if (field === "event") event = v;
          else if (field === "data") data.push(v);
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
  }
}

const extensions: Record<string, string> = {
  "image/png": ".png",
  "image/jpeg": ".jpg",
  "image/svg+xml": ".svg",
  "image/gif": ".gif",
  "image/webp": ".webp",
  "application/pdf": ".pdf",
  "application/json": ".json",
  "video/mp4": ".mp4",
};

/** A file's extension: its URL's, else its media type's. */
function extension(f: OutputFile): string {
  const m = /\.[A-Za-z0-9]{1,8}$/.exec(new URL(f.url, "http://x/").pathname);
  return m ? m[0] : (extensions[f.media_type] ?? "");
}
