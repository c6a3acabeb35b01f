/**
 * Password verification against the users' argon2id PHC hashes, with a short cache.
 *
 * Cache (spec: "verification results are cached for a short time"): entries live
 * VERIFY_CACHE_TTL_MS = 30 s, keyed by user name + HMAC-SHA256(password) under a per-process
 * random key (the cache never holds a password or a plain digest of one). Each entry remembers
 * the PHC hash it was checked against and only counts while the user's current hash is the
 * same string: SET PASSWORD (new salt, new hash) or DROP USER invalidate it on the next
 * request, without a catalog listener. Failures are cached too (clients that always send
 * root:root would otherwise pay an argon2 run per request), keyed the same way, so creating
 * the user or changing the password also invalidates a cached failure. Concurrent checks of
 * the same credentials share one argon2 run. At most VERIFY_CACHE_MAX_ENTRIES entries
 * (oldest evicted first), so random passwords cannot grow memory.
 *
 * Unknown users: the password is verified against a dummy hash made with the same argon2id
 * parameters, so the answer takes as long as a wrong password for a real user and timing
 * does not reveal which user names exist.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { hashPasswordArgon2id, verifyPassword } from '../../ql/index.js';
import type { Clock } from '../rate-limit.js';

export const VERIFY_CACHE_TTL_MS = 30_000;
export const VERIFY_CACHE_MAX_ENTRIES = 4096;

/** A user as the auth layer sees it (engine catalog UserInfo is structurally one). */
export interface AuthUser {
  readonly name: string;
  /** argon2id PHC string. */
  readonly hash: string;
  readonly admin: boolean;
  readonly privileges: Readonly<Record<string, 'READ' | 'WRITE' | 'ALL' | 'NONE'>>;
}

/** Read access to the users (engine.catalog implements it). Read on every request: never stale. */
export interface UserDirectory {
  users(): readonly unknown[];
  user(name: string): AuthUser | undefined;
}

interface Entry {
  /** The user's hash when checked; undefined for an unknown user. */
  readonly hash: string | undefined;
  readonly expires: number;
  readonly ok: Promise<boolean>;
}

export class PasswordVerifier {
  readonly #key = randomBytes(32);
  readonly #cache = new Map<string, Entry>();
  #dummy: Promise<string> | undefined;

  constructor(
    private readonly directory: UserDirectory,
    private readonly clock: Clock,
    private readonly verify: (hash: string, password: string) => Promise<boolean> = verifyPassword,
  ) {}

  /** The user when `password` is theirs, else undefined (unknown user or wrong password). */
  async authenticate(username: string, password: string): Promise<AuthUser | undefined> {
    const user = this.directory.user(username);
    const key = `${username}\u0000${createHmac('sha256', this.#key).update(password).digest('base64')}`;
    const now = this.clock();
    let entry = this.#cache.get(key);
    if (!entry || entry.expires <= now || entry.hash !== user?.hash) {
      const fresh: Entry = { hash: user?.hash, expires: now + VERIFY_CACHE_TTL_MS, ok: this.#check(user, password) };
      // A verification that failed to run (not a wrong password) is not remembered.
      fresh.ok.catch(() => {
        if (this.#cache.get(key) === fresh) this.#cache.delete(key);
      });
      entry = fresh;
      this.#cache.delete(key);
      this.#cache.set(key, entry);
      this.#evict();
    }
    const ok = await entry.ok;
    // Read the user again: the admin flag and grants must be current, and a user dropped
    // while the check ran is gone.
    const current = this.directory.user(username);
    return ok && current !== undefined && current.hash === entry.hash ? current : undefined;
  }

  async #check(user: AuthUser | undefined, password: string): Promise<boolean> {
    if (user) return this.verify(user.hash, password);
    await this.verify(await this.#dummyHash(), password);
    return false;
  }

  /** Hash of a random password, made once with the real parameters (same verify cost). */
  #dummyHash(): Promise<string> {
    this.#dummy ??= hashPasswordArgon2id(randomBytes(24).toString('base64'));
    return this.#dummy;
  }

  /** Warm the dummy hash at start-up so the first unknown-user request is not faster or slower. */
  prepare(): Promise<void> {
    return this.#dummyHash().then(() => undefined);
  }

  /** Drop the oldest entries (Map keeps insertion order; a refreshed entry is re-inserted). */
  #evict(): void {
    for (const key of this.#cache.keys()) {
      if (this.#cache.size <= VERIFY_CACHE_MAX_ENTRIES) break;
      this.#cache.delete(key);
    }
  }
}
