// The page's own style sheet and script, inline (the report is one file, read offline, with no
// request to any server). The script filters and searches the findings table and shows a finding's
// record with the member it points at marked. It builds every element with textContent, never
// from HTML text, so that data it reads from the page stays text.

export const style = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #59636e; --line: #d1d9e0; --panel: #f6f8fa;
  --ok: #1a7f37; --failed: #cf222e; --warning: #9a6700; --unknown: #818b98; --other: #0969da; --mark: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --panel: #151b23;
  --ok: #3fb950; --failed: #f85149; --warning: #d29922; --unknown: #9198a1; --other: #4493f8; --mark: #5a4a00; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1400px; padding: 16px 24px 64px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 20px; margin: 8px 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
.meta, .none, .more, .note { color: var(--muted); }
.notice { border-left: 4px solid var(--warning); background: var(--panel); padding: 6px 10px; margin: 8px 0; }
.notice.bad { border-color: var(--failed); }
.totals { display: flex; flex-wrap: wrap; gap: 8px; margin: 12px 0; padding: 0; }
.totals div { border: 1px solid var(--line); border-radius: 6px; padding: 6px 12px; min-width: 96px; background: var(--panel); }
.totals dt { color: var(--muted); font-size: 12px; } .totals dd { margin: 0; font-size: 20px; font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 12px 24px; }
.chart { margin: 0; } figcaption { font-weight: 600; margin-bottom: 4px; }
svg text { fill: var(--fg); font-size: 12px; }
.bar.ok { fill: var(--ok); } .bar.failed { fill: var(--failed); } .bar.warning { fill: var(--warning); } .bar.unknown { fill: var(--unknown); } .bar.other { fill: var(--other); }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 6px; text-align: left; vertical-align: top; }
th { background: var(--panel); position: sticky; top: 0; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td { overflow-wrap: anywhere; }
td.sev { white-space: nowrap; }
tr.error td.sev { color: var(--failed); font-weight: 600; } tr.warning td.sev { color: var(--warning); font-weight: 600; }
.filters { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: center; margin: 8px 0; }
.filters select, .filters input { font: inherit; max-width: 260px; }
pre.record { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px; overflow: auto; max-height: 60vh; white-space: pre-wrap; overflow-wrap: anywhere; }
mark { background: var(--mark); color: inherit; outline: 1px solid var(--warning); }
#panel { position: fixed; right: 16px; bottom: 16px; width: min(720px, calc(100vw - 32px)); max-height: 80vh; overflow: auto; background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: 8px 12px; box-shadow: 0 8px 24px rgba(0,0,0,.25); }
#panel header { display: flex; justify-content: space-between; gap: 8px; }
`;

export const script = `
(function () {
  'use strict';
  var table = document.getElementById('findings-table');
  if (!table) return;
  var rows = Array.prototype.slice.call(table.tBodies[0].rows);
  var keys = ['severity', 'rule', 'tool', 'input'];
  var selects = {};
  keys.forEach(function (key) {
    var select = document.getElementById('filter-' + key);
    var seen = {};
    var values = [];
    rows.forEach(function (row) {
      var value = row.getAttribute('data-' + key);
      if (value && !Object.prototype.hasOwnProperty.call(seen, value)) { seen[value] = true; values.push(value); }
    });
    values.sort();
    values.forEach(function (value) {
      var option = document.createElement('option');
      option.value = value;
      option.textContent = value;
      select.appendChild(option);
    });
    select.addEventListener('change', apply);
    selects[key] = select;
  });
  var search = document.getElementById('filter-search');
  var shown = document.getElementById('filter-count');
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  search.addEventListener('input', apply);
  function apply() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row, i) {
      var keep = keys.every(function (key) { var want = selects[key].value; return want === '' || row.getAttribute('data-' + key) === want; })
        && words.every(function (word) { return texts[i].indexOf(word) !== -1; });
      row.hidden = !keep;
      if (keep) count++;
    });
    shown.textContent = count === rows.length ? 'showing all ' + rows.length : 'showing ' + count + ' of ' + rows.length;
  }
  apply();
  var records = document.getElementById('records');
  var panel = document.getElementById('panel');
  if (records) records.hidden = true;
  table.addEventListener('click', function (event) {
    var link = event.target.closest ? event.target.closest('a.record') : null;
    if (!link) return;
    event.preventDefault();
    show(link.closest('tr'));
  });
  document.getElementById('panel-close').addEventListener('click', function () { panel.hidden = true; });
  function show(row) {
    var record = document.getElementById('rec-' + row.getAttribute('data-record'));
    if (!record) return;
    var text = record.textContent;
    var pre = document.getElementById('panel-record');
    pre.textContent = '';
    var mark = null;
    var at = row.getAttribute('data-at');
    if (at) {
      var span = at.split(',').map(Number);
      mark = document.createElement('mark');
      mark.textContent = text.slice(span[0], span[1]);
      pre.appendChild(document.createTextNode(text.slice(0, span[0])));
      pre.appendChild(mark);
      pre.appendChild(document.createTextNode(text.slice(span[1])));
    } else {
      pre.appendChild(document.createTextNode(text));
    }
    document.getElementById('panel-place').textContent = row.getAttribute('data-place') + (row.getAttribute('data-pointer') !== null ? '  ' + row.getAttribute('data-pointer') : '');
    document.getElementById('panel-message').textContent = row.cells[5].textContent;
    document.getElementById('panel-cut').hidden = record.getAttribute('data-cut') !== 'true';
    panel.hidden = false;
    if (mark) mark.scrollIntoView({ block: 'center' });
  }
})();
`;
