// API keys: how they are minted, hashed and checked. The service keeps only SHA-256 digests of keys in
// memory, so neither a heap dump nor a logged configuration object can leak a usable key.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const APP_ENVIRONMENTS = ['development', 'staging', 'production'] as const;
export type AppEnv = (typeof APP_ENVIRONMENTS)[number];

/** A key hash line in API_KEYS_FILE: `sha256:` and 64 lower- or upper-case hex digits. */
const HASH_LINE = /^sha256:([0-9a-fA-F]{64})$/;

/** SHA-256 digest (32 bytes) of a key as the client sends it. */
export function hashApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** The line an operator puts into API_KEYS_FILE for a key: `sha256:<64 hex digits>`. */
export function apiKeyHashLine(key: string): string {
  return `sha256:${hashApiKey(key).toString('hex')}`;
}

/**
 * A fresh random key for an environment: `drs_<env>_` and 32 random bytes in base64url (256 bits).
 * The environment in the prefix is for people reading a key; the server trusts only the hash list.
 */
export function mintApiKey(env: AppEnv): string {
  const prefix = env === 'development' ? 'dev' : env;
  return `drs_${prefix}_${randomBytes(32).toString('base64url')}`;
}

/**
 * One line of API_KEYS_FILE as a digest: a `sha256:<hex>` line is taken as the digest itself, any other
 * line as a plain key. Returns null for a line that starts with `sha256:` but is not a valid digest, so
 * the caller can name the line without echoing it.
 */
export function parseKeyLine(line: string): Buffer | null {
  if (line.startsWith('sha256:')) {
    const match = HASH_LINE.exec(line);
    return match ? Buffer.from(match[1]!, 'hex') : null;
  }
  return hashApiKey(line);
}

/**
 * Whether a presented key hashes to one of `keyHashes`. The digest is compared with every configured
 * hash, with no early exit, so the time taken does not tell which or whether a hash matched.
 */
export function createKeyVerifier(keyHashes: readonly Buffer[]): (presentedKey: string) => boolean {
  return (presentedKey) => {
    const digest = hashApiKey(presentedKey);
    let matched = false;
    for (const hash of keyHashes) matched = timingSafeEqual(digest, hash) || matched;
    return matched;
  };
}
