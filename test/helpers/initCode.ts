/**
 * Init code that deploys `runtime` (hex without 0x, under 256 bytes) as a contract's code: PUSH1 its
 * size, DUP1, PUSH1 9 (where it starts, after these 9 bytes), PUSH0, CODECOPY, PUSH0, RETURN.
 */
export function initCodeFor(runtime: string): string {
  const size = runtime.length / 2;
  if (!Number.isInteger(size) || size > 255) throw new Error(`runtime of ${runtime.length} hex digits: whole bytes, under 256`);
  return `0x60${size.toString(16).padStart(2, '0')}8060095f395ff3${runtime}`;
}
