import { hash, verify } from '@node-rs/argon2';

// argon2id (algorithm 2) with OWASP's second recommended profile: 19 MiB, 2 passes.
const options = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (password: string): Promise<string> => hash(password, options);

export const verifyPassword = async (stored: string | null, password: string): Promise<boolean> => {
  if (!stored) return false;
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
};
