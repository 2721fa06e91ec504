/**
 * Init code that deploys `runtime` (hex without 0x, under 256 bytes) as a contract's code: PUSH1 its
 * size, DUP1, PUSH1 9 (where it starts, after these 9 bytes), PUSH0, CODECOPY, PUSH0, RETURN.
 */
export function initCodeFor(runtime: string): string {
  const size = runtime.length / 2;
  if (!Number.isInteger(size) || size > 255) throw new Error(`runtime of ${runtime.length} hex digits: whole bytes, under 256`);
  return `0x60${size.toString(16).padStart(2, '0')}8060095f395ff3${runtime}`;
}

/** Runtime (hex without 0x): with calldata, stores its first word in slot 0; without, returns slot 0. */
export const STORE_OR_READ = '36600c575f545f5260205ff35b5f355f5500';

/** Code that jumps back to its start forever (JUMPDEST, PUSH1 0, JUMP): it ends only when its gas runs out. */
export const LOOP = '0x5b600056';

/** A call of the identity precompile: it returns its input. */
export const ECHO = { to: '0x0000000000000000000000000000000000000004', data: '0x1234' };
