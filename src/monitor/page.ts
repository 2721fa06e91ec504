/**
 * The status page served at / (docs/operations.md "Status page"): one self-contained HTML document
 * that polls /status.json every second and redraws; the recent blocks are drawn as an SVG tree, one
 * column per height, the best chain on the top row, forks below it, uncle references dashed.
 */
/** Blocks drawn as a tree, shared with the testnet overview (testnet/overview.ts). */
export const FORK_TREE_STYLE = '.canonical{fill:#2b7de9}.fork{fill:#e98b2b}.split{fill:#9b59b6}.uncle{stroke:#999;stroke-dasharray:3 3;fill:none}.link{stroke:#555;fill:none}';

/**
 * drawTree(svg, blocks): blocks oldest first, each { number, hash, parentHash, uncles, txs, main, cls, label? }:
 * `main` blocks on the top row, the others below their parent's row where free; `cls` the circle's class;
 * `label` written above it. Also short(hash).
 */
export const FORK_TREE_SCRIPT = `
const short = (h) => h.slice(0, 10) + '…' + h.slice(-6);
function drawTree(svg, blocks) {
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  if (!blocks.length) return;
  const low = Number(blocks[0].number), rows = new Map(), pos = new Map(), used = new Map(), top = 18;
  for (const b of blocks) {
    const col = Number(b.number) - low;
    let row = b.main ? 0 : Math.max(1, rows.get(b.parentHash) ?? 1);
    while (!b.main && used.get(col + ':' + row)) row++;
    used.set(col + ':' + row, true); rows.set(b.hash, row);
    pos.set(b.hash, [20 + col * 28, top + 20 + row * 30]);
  }
  const width = 90 + (Number(blocks.at(-1).number) - low) * 28, height = top + 56 + Math.max(...rows.values()) * 30;
  svg.setAttribute('width', Math.max(width, 200)); svg.setAttribute('height', height);
  const el = (tag, attrs) => { const e = document.createElementNS(ns, tag); for (const k in attrs) e.setAttribute(k, attrs[k]); svg.append(e); return e; };
  for (const b of blocks) {
    const [x, y] = pos.get(b.hash), parent = pos.get(b.parentHash);
    if (parent) el('line', { x1: parent[0], y1: parent[1], x2: x, y2: y, class: 'link' });
    for (const u of b.uncles) { const p = pos.get(u); if (p) el('path', { d: 'M' + x + ' ' + y + ' Q' + (x + p[0]) / 2 + ' ' + (y + p[1]) / 2 + ' ' + p[0] + ' ' + p[1], class: 'uncle' }); }
  }
  for (const b of blocks) {
    const [x, y] = pos.get(b.hash);
    if (b.main && Number(b.number) % 5 === 0) el('text', { x, y: height - 6, 'text-anchor': 'middle', 'font-size': 10 }).textContent = b.number;
    if (b.label) el('text', { x, y: y - 11, 'text-anchor': 'middle', 'font-size': 10, class: 'label' }).textContent = b.label;
    const c = el('circle', { cx: x, cy: y, r: 8, class: 'block ' + b.cls, 'data-number': b.number, 'data-hash': b.hash });
    const t = document.createElementNS(ns, 'title'); t.textContent = '#' + b.number + ' ' + b.hash + ' (' + b.txs + ' txs, ' + b.uncles.length + ' uncles)'; c.append(t);
  }
}
`;

export const STATUS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mmnode status</title>
<style>
body{font:14px system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}
h1{font-size:1.3em}h2{font-size:1.05em;margin-top:1.5em}
.cards{display:flex;gap:1em;flex-wrap:wrap}.card{background:#fff;border:1px solid #ddd;border-radius:6px;padding:.7em 1em;min-width:9em}
.card b{display:block;font-size:1.4em}table{border-collapse:collapse;background:#fff}td,th{border:1px solid #ddd;padding:.25em .6em;text-align:left;font-family:monospace}
#error{color:#b00}svg{background:#fff;border:1px solid #ddd}
${FORK_TREE_STYLE}
</style></head><body>
<h1>mmnode <span id="network"></span> <small id="version"></small></h1>
<p id="error"></p>
<div class="cards">
 <div class="card">head<b id="head-number">–</b><span id="head-hash"></span></div>
 <div class="card">peers<b id="peer-count">–</b></div>
 <div class="card">pool pending / queued<b><span id="pool-pending">–</span> / <span id="pool-queued">–</span></b><span id="rpc-workers"></span></div>
 <div class="card">mining<b id="mining">–</b><span id="hashrate"></span></div>
 <div class="card">sync<b id="sync">–</b></div>
</div>
<h2>Recent blocks and forks</h2>
<svg id="fork-tree" width="900" height="120" role="img" aria-label="recent blocks"></svg>
<h2>Peers</h2>
<table><thead><tr><th>peer</th><th>address</th><th>head</th><th>score</th></tr></thead><tbody id="peers"></tbody></table>
<script>
const $ = (id) => document.getElementById(id);
${FORK_TREE_SCRIPT}
async function refresh() {
  try {
    const s = await (await fetch('status.json', { cache: 'no-store' })).json();
    $('error').textContent = '';
    $('network').textContent = s.network + ' (chain id ' + s.chainId + ')';
    $('version').textContent = s.clientVersion;
    $('head-number').textContent = '#' + s.head.number; $('head-hash').textContent = short(s.head.hash);
    $('peer-count').textContent = s.peers.length;
    $('pool-pending').textContent = s.pool.pending; $('pool-queued').textContent = s.pool.queued;
    $('rpc-workers').textContent = 'EVM requests: ' + s.rpcWorkers.running + ' running, ' + s.rpcWorkers.queued + ' queued';
    $('mining').textContent = s.mining.mining ? s.mining.mode : 'off'; $('hashrate').textContent = s.mining.hashrate + ' H/s';
    $('sync').textContent = s.sync ? s.sync.text : 'in step';
    $('peers').replaceChildren(...s.peers.map((p) => {
      const tr = document.createElement('tr');
      for (const v of [short(p.id), p.address, p.head ?? '?', p.score]) { const td = document.createElement('td'); td.textContent = v; tr.append(td); }
      return tr;
    }));
    drawTree($('fork-tree'), s.blocks.map((b) => ({ ...b, main: b.canonical, cls: b.canonical ? 'canonical' : 'fork' })));
  } catch (err) {
    $('error').textContent = 'node not answering: ' + err.message;
  }
}
refresh(); setInterval(refresh, 1000);
</script></body></html>`;
