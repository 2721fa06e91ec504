/**
 * The testnet's overview page, served by the control endpoint at / (docs/testnet.md, "Overview page"):
 * every node's head, peers and sync, and one fork tree across them, from each node's /status.json
 * (docs/operations.md "Status page") gathered by the endpoint at /overview.json.
 */
import { FORK_TREE_SCRIPT, FORK_TREE_STYLE } from '../src/monitor/page.ts';
import type { Supervisor } from './supervisor.ts';

const STATUS_TIMEOUT_MS = 2_000;

/** Each node's plan and, when it is up and answers, its status page's data. */
export async function overview(supervisor: Supervisor) {
  return {
    nodes: await Promise.all(Array.from({ length: supervisor.size }, async (_, i) => {
      const d = supervisor.describe(i);
      const status = d.state === 'up' && d.metricsUrl
        ? await fetch(`${d.metricsUrl}/status.json`, { signal: AbortSignal.timeout(STATUS_TIMEOUT_MS) }).then((r) => r.json(), () => null)
        : null;
      return { index: i, role: d.role, state: d.state, metricsUrl: d.metricsUrl ?? null, status };
    })),
  };
}

export const OVERVIEW_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mmnode testnet</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}h1{font-size:1.3em}
table{border-collapse:collapse;background:#fff}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left;font-family:monospace}
svg{background:#fff;border:1px solid #ddd}.label{fill:#333}
${FORK_TREE_STYLE}
</style></head><body>
<h1>mmnode testnet</h1>
<table><thead><tr><th>node</th><th>role</th><th>state</th><th>head</th><th>peers</th><th>sync</th><th>status page</th></tr></thead><tbody id="nodes"></tbody></table>
<h2>Blocks across the nodes</h2>
<p>blue: on every running node's best chain; purple: on some; orange: on none (a fork). nN marks node N's head.</p>
<svg id="fork-tree" width="900" height="120" role="img" aria-label="blocks across the nodes"></svg>
<script>
const $ = (id) => document.getElementById(id);
${FORK_TREE_SCRIPT}
async function refresh() {
  const { nodes } = await (await fetch('overview.json', { cache: 'no-store' })).json();
  $('nodes').replaceChildren(...nodes.map((n) => {
    const tr = document.createElement('tr'), s = n.status;
    const cells = ['n' + n.index, n.role, n.state, s ? '#' + s.head.number + ' ' + short(s.head.hash) : '–', s ? s.peers.length : '–', s ? (s.sync ? s.sync.text : 'in step') : '–'];
    for (const v of cells) { const td = document.createElement('td'); td.textContent = v; tr.append(td); }
    if (n.metricsUrl) { const a = document.createElement('a'); a.href = n.metricsUrl + '/'; a.textContent = a.href; const td = document.createElement('td'); td.append(a); tr.append(td); }
    return tr;
  }));
  const up = nodes.filter((n) => n.status);
  const heaviest = up.reduce((a, n) => (!a || BigInt(n.status.head.totalDifficulty) > BigInt(a.status.head.totalDifficulty) ? n : a), undefined);
  const blocks = new Map();
  for (const n of up) for (const b of n.status.blocks) {
    const seen = blocks.get(b.hash) ?? { ...b, on: [], heads: [] };
    if (b.canonical) seen.on.push(n.index);
    blocks.set(b.hash, seen);
  }
  for (const n of up) blocks.get(n.status.head.hash)?.heads.push('n' + n.index);
  const tree = [...blocks.values()].sort((a, b) => Number(BigInt(a.number) - BigInt(b.number))).map((b) => ({
    ...b, main: heaviest !== undefined && b.on.includes(heaviest.index), label: b.heads.join(' '),
    cls: b.on.length === up.length ? 'canonical' : b.on.length ? 'split' : 'fork',
  }));
  drawTree($('fork-tree'), tree.slice(-48));
}
refresh(); setInterval(() => refresh().catch(() => {}), 1000);
</script></body></html>`;
