import { VerificationError } from "./errors.js";
import type { JWKS, JobEvent, Manifest, ManifestJWS } from "./types.js";

/** The longest the key document is cached, in milliseconds (the spec's 24 hours). */
export const KEYS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export interface VerifierOptions {
  /** The service's address without /v1; its keys are at {baseURL}/.well-known/jwks.json. */
  baseURL: string;
  /** The timestamp window in seconds; read from GET /v1/meta when absent. */
  windowSeconds?: number;
  /** A fixed key document instead of fetching one (offline checks, tests). */
  jwks?: JWKS;
  /** The least time between two refetches of the key document after failures, in ms (default 60 000). */
  refetchCooldownMs?: number;
  /** The receiver's clock in ms (default Date.now). */
  now?: () => number;
  fetch?: typeof fetch;
}

/** A verified webhook delivery. */
export interface Delivery {
  /** The delivery id (whd_…): the same for every retry, new for a replay. */
  id: string;
  /** The numeric account id, as text. */
  userId: string;
  /** When it was signed, Unix seconds. */
  timestamp: number;
  /** The raw body and it decoded; dedupe by event.id. */
  body: string;
  event: JobEvent;
}

/** The four X-Service-* headers, read from a Headers, a Node IncomingHttpHeaders or a plain object. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(h: HeaderSource, name: string): string {
  if (typeof (h as Headers).get === "function") return (h as Headers).get(name) ?? "";
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(h as Record<string, string | string[] | undefined>)) {
    if (k.toLowerCase() === lower) return Array.isArray(v) ? (v[0] ?? "") : (v ?? "");
  }
  return "";
}

function bytesOf(body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  return typeof body === "string" ? new TextEncoder().encode(body) : new Uint8Array(body);
}

function fromBase64(s: string, url: boolean): Uint8Array<ArrayBuffer> {
  let t = s.trim();
  if (url) t = t.replace(/-/g, "+").replace(/_/g, "/");
  t = t.replace(/=+$/, "");
  if (!/^[A-Za-z0-9+/]*$/.test(t) || t.length % 4 === 1) throw new Error("not Base64");
  const bin = atob(t + "=".repeat((4 - (t.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

function hex(b: ArrayBuffer): string {
  return Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
}

/**
 * The spec's signed message: the delivery id, the user id, the timestamp
 * and the lowercase hex SHA-256 of the raw body, joined by line feeds with
 * no trailing one.
 */
export async function signedMessage(id: string, userId: string, timestamp: string, body: string | Uint8Array) {
  const sum = hex(await crypto.subtle.digest("SHA-256", bytesOf(body)));
  return new TextEncoder().encode(`${id}\n${userId}\n${timestamp}\n${sum}`);
}

/** Whether any OKP/Ed25519 key of jwks (the one named kid, when given) verifies sig over data. */
async function anyKeyVerifies(
  jwks: JWKS,
  sig: Uint8Array<ArrayBuffer>,
  data: Uint8Array<ArrayBuffer>,
  kid?: string,
): Promise<boolean> {
  for (const k of jwks.keys) {
    if (k.kty !== "OKP" || k.crv !== "Ed25519" || (kid && k.kid !== kid)) continue;
    let key: CryptoKey;
    try {
      key = await crypto.subtle.importKey("jwk", { kty: "OKP", crv: "Ed25519", x: k.x }, { name: "Ed25519" }, false, [
        "verify",
      ]);
    } catch {
      continue;
    }
    if (await crypto.subtle.verify({ name: "Ed25519" }, key, sig, data)) return true;
  }
  return false;
}

/**
 * Checks webhook deliveries as the spec's five steps say, and job
 * manifests: Ed25519 against the keys at /.well-known/jwks.json, cached at
 * most 24 hours and refetched once on a failure (at most once per cooldown);
 * a delivery's timestamp within webhook.signature.timestamp_window_seconds
 * of GET /v1/meta.
 */
export class Verifier {
  readonly #base: string;
  #window: number | undefined;
  readonly #fixed: JWKS | undefined;
  readonly #cooldown: number;
  readonly #now: () => number;
  readonly #fetch: typeof fetch;
  #jwks: JWKS | undefined;
  #fetchedAt = 0;
  #lastTry = 0;

  constructor(options: VerifierOptions) {
    this.#base = options.baseURL.replace(/\/+$/, "");
    this.#window = options.windowSeconds;
    this.#fixed = options.jwks;
    this.#cooldown = options.refetchCooldownMs ?? 60_000;
    this.#now = options.now ?? Date.now;
    this.#fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async #get<T>(path: string): Promise<T> {
    const res = await this.#fetch(this.#base + path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return (await res.json()) as T;
  }

  /** The key document and whether this call fetched it. */
  async #keys(force: boolean): Promise<[JWKS, boolean]> {
    if (this.#fixed) return [this.#fixed, true];
    const now = this.#now();
    const stale = !this.#jwks || now - this.#fetchedAt >= KEYS_MAX_AGE_MS;
    if (!stale && !(force && now - this.#lastTry >= this.#cooldown)) return [this.#jwks!, false];
    if (!stale) this.#lastTry = now;
    try {
      this.#jwks = await this.#get<JWKS>("/.well-known/jwks.json");
    } catch (err) {
      if (!stale) return [this.#jwks!, false];
      throw new Error("fetch webhook keys", { cause: err });
    }
    this.#fetchedAt = now;
    return [this.#jwks, true];
  }

  async #windowSeconds(): Promise<number> {
    if (this.#window) return this.#window;
    const meta = await this.#get<{ webhook?: { signature?: { timestamp_window_seconds?: number } } }>("/v1/meta");
    const w = meta.webhook?.signature?.timestamp_window_seconds;
    if (!w || w <= 0) throw new Error("GET /v1/meta has no webhook.signature.timestamp_window_seconds");
    this.#window = w;
    return w;
  }

  /** Verifies with the cached keys, then once more with fresh ones when they did not verify. */
  async #withKeys(check: (jwks: JWKS) => Promise<boolean>): Promise<boolean> {
    const [jwks, fresh] = await this.#keys(false);
    if (await check(jwks)) return true;
    if (fresh) return false;
    const [again, refetched] = await this.#keys(true);
    return refetched && (await check(again));
  }

  /**
   * Verifies one delivery: its headers and its raw body exactly as
   * received (do not parse and re-serialize it first). Throws
   * VerificationError (reason missing_headers, stale or bad_signature).
   */
  async verify(headers: HeaderSource, rawBody: string | Uint8Array): Promise<Delivery> {
    const id = header(headers, "X-Service-Request-Id");
    const userId = header(headers, "X-Service-User-Id");
    const ts = header(headers, "X-Service-Timestamp");
    const sig = header(headers, "X-Service-Signature");
    if (!id || !userId || !ts || !sig) {
      throw new VerificationError("missing_headers", "webhook delivery lacks X-Service-* headers");
    }
    const window = await this.#windowSeconds();
    if (!/^-?\d+$/.test(ts)) throw new VerificationError("stale", `timestamp ${JSON.stringify(ts)} is not Unix seconds`);
    const skew = Math.abs(this.#now() / 1000 - Number(ts));
    if (skew > window) {
      throw new VerificationError("stale", `webhook timestamp ${Math.round(skew)} s from the clock (window ${window} s)`);
    }
    let signature: Uint8Array<ArrayBuffer>;
    try {
      signature = fromBase64(sig, false);
    } catch {
      signature = new Uint8Array();
    }
    if (signature.length !== 64) {
      throw new VerificationError("bad_signature", "signature is not Base64 of an Ed25519 signature");
    }
    const message = await signedMessage(id, userId, ts, rawBody);
    if (!(await this.#withKeys((jwks) => anyKeyVerifies(jwks, signature, message)))) {
      throw new VerificationError("bad_signature", "webhook signature does not verify");
    }
    const body = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
    return { id, userId, timestamp: Number(ts), body, event: JSON.parse(body) as JobEvent };
  }

  /**
   * Verifies a job manifest (the flattened JSON JWS of
   * GET /v1/jobs/{id}/manifest, or its compact form) and answers the
   * manifest it signs. Throws VerificationError (malformed, bad_signature).
   */
  async verifyManifest(jws: ManifestJWS | string): Promise<Manifest> {
    const j = typeof jws === "string" ? compactParts(jws) : jws;
    let head: { alg?: string; kid?: string };
    let payload: Uint8Array;
    let sig: Uint8Array<ArrayBuffer>;
    try {
      head = JSON.parse(new TextDecoder().decode(fromBase64(j.protected, true))) as { alg?: string; kid?: string };
      payload = fromBase64(j.payload, true);
      sig = fromBase64(j.signature, true);
    } catch {
      throw new VerificationError("malformed", "manifest is not a JWS of three Base64url parts");
    }
    if (head.alg !== "EdDSA") throw new VerificationError("malformed", "manifest header must say alg EdDSA");
    if (sig.length !== 64) throw new VerificationError("bad_signature", "not an Ed25519 signature");
    const input = new TextEncoder().encode(`${j.protected}.${j.payload}`);
    if (!(await this.#withKeys((jwks) => anyKeyVerifies(jwks, sig, input, head.kid)))) {
      throw new VerificationError("bad_signature", "manifest signature does not verify");
    }
    return JSON.parse(new TextDecoder().decode(payload)) as Manifest;
  }
}

function compactParts(compact: string): ManifestJWS {
  const parts = compact.trim().split(".");
  if (parts.length !== 3) throw new VerificationError("malformed", `${parts.length} parts, want 3`);
  return { protected: parts[0]!, payload: parts[1]!, signature: parts[2]! };
}
