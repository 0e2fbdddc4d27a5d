export * from "./client.js";
export * from "./errors.js";
export * from "./types.js";
export * from "./verify.js";
