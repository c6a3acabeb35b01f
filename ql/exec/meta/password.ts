/**
 * Password hashing for users: argon2id (hash-wasm) in PHC string format with a random 16-byte
 * salt from node:crypto.
 *
 * Parameters: memory 19 MiB (19456 KiB), 2 iterations, parallelism 1, 32-byte hash: the OWASP
 * password-storage minimum for argon2id, which takes tens of milliseconds on small ARM boards
 * (authentication results are cached by the server, so this is paid once per credential).
 * verifyPassword reads the parameters from the PHC string, so hashes made with other
 * parameters keep verifying. Passwords are never logged, stored or echoed in clear text.
 */
import { randomBytes } from 'node:crypto';
import { argon2id, argon2Verify } from 'hash-wasm';

export const ARGON2_PARAMS = { memorySize: 19456, iterations: 2, parallelism: 1, hashLength: 32 } as const;

/**
 * hash-wasm's argon2 refuses an empty password, which 1.x accepts (`WITH PASSWORD ''`): it is
 * hashed as the single byte 0xFF, which the UTF-8 encoding of no text contains.
 */
const EMPTY_PASSWORD = Uint8Array.of(0xff);
const secret = (password: string): string | Uint8Array => (password === '' ? EMPTY_PASSWORD : password);

export function hashPasswordArgon2id(password: string): Promise<string> {
  return argon2id({ password: secret(password), salt: randomBytes(16), ...ARGON2_PARAMS, outputType: 'encoded' });
}

/** True when `password` matches the PHC `hash`; false (never throws) for malformed hashes. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  if (!hash.startsWith('$argon2')) return false;
  try {
    return await argon2Verify({ password: secret(password), hash });
  } catch {
    return false;
  }
}
