/** Raw JSON-RPC over HTTP, for checking envelopes and error codes exactly. */
export async function post(url: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) {
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

export async function rpc<T = any>(url: string, method: string, params: unknown[] = []): Promise<T> {
  const { json } = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  if (json.error) throw Object.assign(new Error(`${method}: ${json.error.message}`), { rpc: json.error });
  return json.result as T;
}

/** Whether `eth_call` of `tx` at `latest` succeeds with `gas` as its limit (a revert or running out of gas answers an error). */
export async function callSucceeds(url: string, tx: Record<string, string>, gas: bigint): Promise<boolean> {
  const { json } = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_call', params: [{ ...tx, gas: `0x${gas.toString(16)}` }, 'latest'] }));
  return json.error === undefined;
}

/** The error object of a call expected to fail. */
export async function rpcError(url: string, method: string, params: unknown[] = []): Promise<{ code: number; message: string; data?: string }> {
  const { json } = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }));
  if (!json.error) throw new Error(`${method} was expected to fail but returned ${JSON.stringify(json.result)}`);
  return json.error;
}

/** `p`, or a failure naming what did not happen in `ms`: something that never comes fails its test instead of hanging it. */
export function within<T>(p: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms); });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** Polls `check` until it returns a value other than undefined/false; names what it waited for on timeout. */
export async function waitUntil<T>(check: () => Promise<T> | T, opts: { timeoutMs?: number; what: string }): Promise<Exclude<T, false | undefined | null>> {
  const deadline = Date.now() + (opts.timeoutMs ?? 10_000);
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== null && v !== false) return v as Exclude<T, false | undefined | null>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
