/** Deterministic pseudo-random integers below `n` (a 32-bit LCG), so a failing case is reproducible from its seed. */
export function random(seed: number): (n: number) => number {
  let x = seed >>> 0;
  return (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
}
