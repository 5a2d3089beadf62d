/*
 * sluice dashboard: polls the admin API about once a second and draws, for
 * the selected table and each of its global secondary indexes, consumption
 * against the limits, throttled events by reason, the partitions with their
 * own limits, Contributor Insights' top keys and the recent throttle events,
 * all over one time window (1 min, 15 min, 1 h, 24 h of the capacity clock;
 * "Auto" is the shortest in which something throttled). With no table
 * chosen it shows the one that throttled most in the window, so a page
 * opened after a run shows what throttled, where and why.
 *
 * Plain DOM and inline SVG, no framework, no build step, nothing fetched from
 * another origin (the server's Content-Security-Policy forbids it). Values
 * from the server (table names, keys) only ever reach the page as text
 * (textContent, setAttribute), never as markup.
 *
 * Endpoints (README "Admin API", src/server/admin.h, metrics_http.h):
 *   GET  /_sluice/clock, /_sluice/config
 *   GET  /_sluice/tables?window_s=N         tables (and deleted ones), throttles in the window
 *   GET  /_sluice/tables/NAME/capacity?window_s=N
 *                                          resources, buckets, partitions (throttles in the
 *                                          window), auto scaling activities, item collections
 *   GET  /_sluice/tables/NAME/stream?window_s=N
 *                                          stream shards, readers' positions, lag,
 *                                          records/s over the window, oldest record
 *   GET  /_sluice/metrics?...&period=P     CloudWatch datapoints (1 s, 1 or 10 min;
 *                                          &incarnation=deleted: a deleted table's)
 *   GET  /_sluice/events?table=NAME        recent throttle events (&incarnation=deleted)
 *   GET  /_sluice/tables/NAME/insights     Contributor Insights top keys
 *   GET  /_sluice/faults                   active fault rules (marked on the page)
 *   POST /_sluice/clock {"advance_ms":N}   manual clock only
 *   POST / UpdateContributorInsights       the "Enable" button
 *   POST /_sluice/explain {"Statement"}    the workbench's Preview (nothing read or charged)
 *   POST /_sluice/execute {"Statement"}    the workbench's Run (ExecuteStatement)
 */
'use strict';

(() => {
  const POLL_MS = 1000;
  /* The time windows every chart and count covers, on the capacity clock:
   * the per-second ring holds 5 minutes, the per-minute ring 24 hours;
   * Contributor Insights keeps 60 minutes (metrics/metrics.h). */
  const WINDOWS = [
    {key: '1m', s: 60, period: 1, label: '1 min', long: 'minute'},
    {key: '15m', s: 900, period: 60, label: '15 min', long: '15 minutes'},
    {key: '1h', s: 3600, period: 60, label: '1 h', long: 'hour'},
    {key: '24h', s: 86400, period: 600, label: '24 h', long: '24 hours'},
  ];
  const CAPACITY_SCAN_MAX = 12; /* tables whose capacity the list inspects */

  /* The four limits in the engine's order (cap/cap.h sl_cap_limit): the
   * reason suffix, the CloudWatch metric infix, a CSS class and the remedy
   * (docs/capacity.md "Reading a throttle"). */
  const LIMITS = [
    {
      key: 'MaxOnDemandThroughputExceeded',
      metric: 'MaxOnDemandThroughput',
      cls: 'MaxOnDemand',
      what: 'the configured OnDemandThroughput maximum',
      fix: 'raise or remove (-1) the OnDemandThroughput maximum',
    },
    {
      key: 'AccountLimitExceeded',
      metric: 'AccountLimit',
      cls: 'AccountLimit',
      what: 'the per-table quota of on-demand throughput',
      fix: 'ask for a quota increase, or spread the load over tables',
    },
    {
      key: 'ProvisionedThroughputExceeded',
      metric: 'ProvisionedThroughput',
      cls: 'Provisioned',
      what: 'the provisioned capacity and its burst',
      fix: 'raise the provisioned units, or switch to on-demand',
    },
    {
      key: 'KeyRangeThroughputExceeded',
      metric: 'KeyRangeThroughput',
      cls: 'KeyRange',
      what: "one partition's own limit",
      fix: 'spread the key (write sharding) or cache hot reads — more capacity does not help',
    },
  ];
  const DIRS = [
    {key: 'write', Cap: 'Write', unit: 'WCU', noun: 'writes'},
    {key: 'read', Cap: 'Read', unit: 'RCU', noun: 'reads'},
  ];

  const state = {
    window: WINDOWS[0],
    windowChosen: false, /* the user picked the window (else: the shortest with throttles) */
    choices: 0, /* bumped on each choice of window or table: a refresh begun before it draws nothing */
    selected: null,
    chosen: false, /* the user picked the table (else: the hottest one) */
    paused: false,
    timer: null,
    busy: false,
    again: false,
    force: false,
    config: null,
    limitHistory: new Map(), /* "table/resource/dir" -> [{t, v}] */
    headline: '',
    uid: 0,
  };

  /* ---- DOM helpers ---- */

  const SVGNS = 'http://www.w3.org/2000/svg';

  function setProps(el, props) {
    for (const [k, v] of Object.entries(props || {})) {
      if (v === null || v === undefined || v === false)
        continue;
      if (k === 'class')
        el.setAttribute('class', v);
      else if (k === 'text')
        el.textContent = v;
      else if (k === 'style')
        Object.assign(el.style, v);
      else if (k.startsWith('on'))
        el.addEventListener(k.slice(2), v);
      else
        el.setAttribute(k, v === true ? '' : String(v));
    }
  }

  function append(el, kids) {
    for (const k of kids.flat(Infinity)) {
      if (k === null || k === undefined || k === false)
        continue;
      el.append(k instanceof Node ? k : String(k));
    }
    return el;
  }

  function h(tag, props, ...kids) {
    const el = document.createElement(tag);
    setProps(el, props);
    return append(el, kids);
  }

  function s(tag, props, ...kids) {
    const el = document.createElementNS(SVGNS, tag);
    setProps(el, props);
    return append(el, kids);
  }

  const $ = (id) => document.getElementById(id);

  /* Replaces the children of 'el' and gives focus back to the control that
   * had it (controls carry a stable data-focus key). */
  function replaceKeepingFocus(el, ...kids) {
    const active = document.activeElement;
    const key = active && active.dataset ? active.dataset.focus : null;
    el.replaceChildren(...kids.flat(Infinity).filter((k) => k));
    if (key && !document.body.contains(active)) {
      const again = document.querySelector(`[data-focus="${CSS.escape(key)}"]`);
      if (again)
        again.focus();
    }
  }

  /* ---- formatting ---- */

  const formats = new Map();
  function num(v, digits = 1) {
    if (!formats.has(digits))
      formats.set(digits, new Intl.NumberFormat('en-US', {maximumFractionDigits: digits}));
    return formats.get(digits).format(v);
  }
  const units = (v) => num(v, Math.abs(v) < 10 ? 2 : 1);
  const pct = (f) => `${num(f * 100, f < 0.1 ? 1 : 0)} %`;

  function bytes(b) {
    if (b < 1024)
      return `${num(b, 0)} B`;
    const names = ['KB', 'MB', 'GB', 'TB'];
    let v = b / 1024;
    let i = 0;
    while (v >= 1024 && i < names.length - 1) {
      v /= 1024;
      i++;
    }
    return `${v < 10 ? v.toFixed(1) : num(v, 0)} ${names[i]}`;
  }

  function clockText(ms) {
    return new Date(ms).toISOString().replace('T', ' ').replace('Z', ' UTC');
  }

  function timeOfDay(ms) {
    return new Date(ms).toISOString().slice(11, 23);
  }

  function plural(n, one, many) {
    return `${num(n, 0)} ${n === 1 ? one : many || one + 's'}`;
  }

  /* "the last minute", "the last 15 minutes" */
  const lastW = () => `the last ${state.window.long}`;

  function ago(ms) {
    if (ms < 120000)
      return `−${num(ms / 1000, 0)} s`;
    if (ms < 7200000)
      return `−${num(ms / 60000, 0)} min`;
    return `−${num(ms / 3600000, 1)} h`;
  }

  function periodText(period) {
    return period === 1 ? 'second' : period === 60 ? 'minute' : `${num(period / 60, 0)} minutes`;
  }

  const reasonName = (res, dir, limit) =>
    `${res.kind === 'index' ? 'Index' : 'Table'}${dir.Cap}${limit.key}`;

  function reasonTag(name) {
    const limit = LIMITS.find((l) => name.endsWith(l.key));
    return h('code', {class: `reason r-${limit ? limit.cls : 'other'}`, text: name});
  }

  function resourceLabel(res, table) {
    return res.kind === 'index' ? `index ${res.name} of table ${table}` : `table ${res.name}`;
  }

  /* ---- server access ---- */

  async function api(path, opts) {
    const r = await fetch(path, Object.assign({cache: 'no-store'}, opts || {}));
    let body = null;
    try {
      body = await r.json();
    } catch (_) {
      body = null;
    }
    if (!r.ok) {
      const e = new Error((body && body.error) || `HTTP ${r.status} for ${path}`);
      e.status = r.status;
      throw e;
    }
    return body;
  }


  /* Sum datapoints of one metric over [start, end), one per 'period'
   * seconds. */
  async function series(table, index, metric, start, end, period, deleted) {
    const q = new URLSearchParams({table, metric, period: String(period), start: String(start), end: String(end)});
    if (index)
      q.set('index', index);
    if (deleted)
      q.set('incarnation', 'deleted');
    const j = await api(`/_sluice/metrics?${q}`);
    return (j.Datapoints || []).map((d) => ({t: Date.parse(d.Timestamp), v: d.Sum}));
  }

  /* ---- model: limits and figures derived from the capacity state ---- */

  /* The limit that binds a whole table or index in one direction. */
  function resourceLimit(res, dir) {
    const b = (res.buckets && res.buckets[dir.key]) || {};
    const cands = [];
    if (b.table)
      cands.push({v: b.table.rate, what: 'provisioned'});
    if (b.ceiling)
      cands.push({v: b.ceiling.rate, what: 'on-demand: twice the previous peak'});
    if (b.max_on_demand)
      cands.push({v: b.max_on_demand.rate, what: 'OnDemandThroughput maximum'});
    if (b.account_quota)
      cands.push({v: b.account_quota.rate, what: 'per-table quota'});
    if (!cands.length)
      return null;
    return cands.reduce((a, c) => (c.v < a.v ? c : a));
  }

  function partitionLimit(res, dir) {
    const rates = (res.partitions || []).map((p) => p[dir.key].rate);
    return rates.length ? Math.max(...rates) : null;
  }

  /* Fraction of the 2^64 hash space a partition covers. */
  function keySpace(range) {
    try {
      const lo = BigInt(`0x${range[0]}`);
      const hi = BigInt(`0x${range[1]}`);
      return Number(((hi - lo) * 100000n) >> 64n) / 100000;
    } catch (_) {
      return null;
    }
  }

  function recordLimit(key, t, v, start) {
    let hist = state.limitHistory.get(key);
    if (!hist) {
      hist = [];
      state.limitHistory.set(key, hist);
    }
    const last = hist[hist.length - 1];
    if (!last || last.v !== v)
      hist.push({t, v});
    while (hist.length > 1 && hist[1].t <= start)
      hist.shift();
    return hist;
  }

  /* ---- loading ---- */

  /* 'deleted': the table's last deleted incarnation (no capacity state:
   * 'cap' is built from what the metrics kept, every reason is asked for). */
  async function loadTable(name, nowMs, cap, deleted) {
    const W = state.window;
    const pms = W.period * 1000;
    const end = Math.floor(nowMs / pms) * pms + pms;
    const start = end - W.s * 1000;
    const enc = encodeURIComponent(name);
    const minutes = Math.min(60, Math.max(1, Math.ceil(W.s / 60)));
    const inc = deleted ? '&incarnation=deleted' : '';
    const eventsP = api(`/_sluice/events?table=${enc}&limit=1000${inc}`).then((j) => Object.assign(j, {
      events: (j.events || []).filter((e) => e.time_ms >= start),
      all: (j.events || []).length,
    })).catch((e) => ({error: e}));
    const insightsP = deleted ? Promise.resolve({error: 'deleted'})
      : api(`/_sluice/tables/${enc}/insights?minutes=${minutes}`).catch((e) => ({error: e}));
    const streamP = !deleted && cap.stream !== false
      ? api(`/_sluice/tables/${enc}/stream?window_s=${W.s}`).catch((e) => ({error: e})) : Promise.resolve(null);
    const resources = await Promise.all(cap.resources.map(async (res) => {
      const index = res.kind === 'index' ? res.name : '';
      const jobs = [];
      for (const dir of DIRS) {
        jobs.push([`consumed:${dir.key}`, series(name, index, `Consumed${dir.Cap}CapacityUnits`, start, end, W.period, deleted)]);
        for (const limit of LIMITS)
          if (deleted || (res.throttles && res.throttles[dir.key][limit.key] > 0))
            jobs.push([`throttled:${dir.key}:${limit.key}`,
              series(name, index, `${dir.Cap}${limit.metric}ThrottleEvents`, start, end, W.period, deleted)]);
      }
      const data = {};
      let metricsOk = true;
      for (const [k, p] of jobs) {
        try {
          data[k] = await p;
        } catch (_) {
          data[k] = [];
          metricsOk = false;
        }
      }
      return {res, data, metricsOk};
    }));
    return {start, end, period: W.period, resources, events: await eventsP, insights: await insightsP,
      stream: await streamP, deleted: !!deleted};
  }

  const tablesIn = (W) => api(`/_sluice/tables?window_s=${W.s}`);
  const throttledAny = (list) => [...(list.tables || []), ...(list.deleted_tables || [])].some((t) => t.throttle_events > 0);

  async function refresh() {
    /* Every request of one refresh covers one window and one table. If the
     * user chooses another while it loads, its answers mix them (a table
     * list of the last minute beside partitions of the last 15): it draws
     * nothing, and the refresh the choice asked for draws the page. */
    const gen = state.choices;
    const stale = () => gen !== state.choices;
    const clock = await api('/_sluice/clock');
    let list = null;
    if (state.windowChosen) {
      list = await tablesIn(state.window);
    } else {
      /* Unless the user chose one, the window is the shortest in which
       * something throttled: a page opened after a run still shows it. */
      let auto = WINDOWS[0];
      for (const W of WINDOWS) {
        const l = await tablesIn(W);
        if (W === WINDOWS[0])
          list = l;
        if (throttledAny(l)) {
          list = l;
          auto = W;
          break;
        }
      }
      if (stale())
        return;
      state.window = auto;
    }
    renderWindow();
    if (!state.config)
      state.config = await api('/_sluice/config').catch(() => ({}));
    renderClock(clock);
    /* Live tables and the deleted ones the server still remembers (their
     * last incarnation), ordered by throttles in the window. */
    const tables = sortByThrottles([...(list.tables || []),
      ...(list.deleted_tables || []).map((d) => Object.assign({}, d, {deleted: true,
        live_too: (list.tables || []).some((t) => t.name === d.name)}))]);
    const live = tables.filter((t) => !t.deleted);
    const caps = new Map();
    await Promise.all(live.slice(0, CAPACITY_SCAN_MAX).map(async (t) => {
      try {
        caps.set(t.name, await api(capacityPath(t.name)));
      } catch (_) { /* the table went away meanwhile */ }
    }));
    if (!tables.some((t) => tableKey(t) === state.selected)) {
      state.chosen = false;
      state.selected = null;
    }
    if (!state.chosen) {
      /* The table that throttled most in the window (a deleted one too: a
       * CI run often deletes its tables when it fails; a live one wins a
       * tie), else one hot now, else the first live one. */
      const most = tables.reduce((a, t) => (t.throttle_events > (a ? a.throttle_events : 0) ? t : a), null);
      const hot = live.find((t) => caps.has(t.name) && hotCount(caps.get(t.name)) > 0);
      const first = live[0] || tables[0];
      state.selected = most ? tableKey(most) : hot ? hot.name : first ? tableKey(first) : null;
    }
    state.faults = await api('/_sluice/faults').then((j) => j.rules || []).catch(() => []);
    if (stale())
      return;
    renderTables(tables, caps);
    if (!state.selected) {
      renderNoTable();
      return;
    }
    const table = tables.find((t) => tableKey(t) === state.selected);
    if (table.deleted) {
      const dcap = deletedCapacity(table);
      const ddata = await loadTable(table.name, clock.now_ms, dcap, true);
      if (!stale())
        renderDetail(table, dcap, ddata);
      return;
    }
    let cap = caps.get(state.selected);
    if (!cap) {
      try {
        cap = await api(capacityPath(state.selected));
      } catch (e) {
        if (e.status !== 404)
          throw e;
        renderNoTable();
        return;
      }
    }
    if (!table.stream)
      cap.stream = false;
    const data = await loadTable(state.selected, cap.now_ms, cap);
    if (!stale())
      renderDetail(table, cap, data);
  }

  const capacityPath = (name) => `/_sluice/tables/${encodeURIComponent(name)}/capacity?window_s=${state.window.s}`;
  /* A deleted table is selected (and bookmarked) as "deleted:NAME". */
  const deletedKey = (name) => `deleted:${name}`;
  const tableKey = (t) => (t.deleted ? deletedKey(t.name) : t.name);

  /* The table list's order: most throttles in the window first, so the
   * culprit of a failed run is the first row; ties (all 0 when nothing
   * throttled) keep the server's order, by name, live before deleted. */
  function sortByThrottles(tables) {
    return tables.map((t, i) => ({t, i})).sort((a, b) =>
      (b.t.throttle_events || 0) - (a.t.throttle_events || 0) || a.i - b.i).map((x) => x.t);
  }

  /* What a deleted table's page is drawn from: its resources as its
   * metrics knew them (the table and the GSIs it recorded anything on),
   * without buckets or partitions (they went with the table). */
  function deletedCapacity(t) {
    return {table: t.name, now_ms: null, stream: false, scaling_activities: [], item_collections: null,
      resources: [{kind: 'table', name: t.name, partitions: []},
        ...(t.indexes || []).map((name) => ({kind: 'index', name, partitions: []}))]};
  }

  function hotCount(cap) {
    let n = 0;
    for (const r of cap.resources || [])
      for (const p of r.partitions || [])
        if (p.hot)
          n++;
    return n;
  }

  /* ---- polling ---- */

  /* The visible connection state (not a live region: it would speak every
   * second). */
  function setStatus(text, kind) {
    const el = $('status');
    const t = $('status-text');
    if (t.textContent !== text)
      t.textContent = text;
    el.classList.toggle('error', kind === 'error');
    el.classList.toggle('paused', kind === 'paused');
    if (kind === 'error')
      announce(text);
  }

  /* Screen readers hear a message only when it changes. */
  function announce(text) {
    const el = $('announce');
    if (text && el.textContent !== text)
      el.textContent = text;
  }

  function schedule(ms) {
    clearTimeout(state.timer);
    state.timer = setTimeout(tick, ms);
  }

  async function tick() {
    state.timer = null;
    if (state.paused && !state.force)
      return;
    state.force = false;
    if (state.busy) {
      state.again = true;
      return;
    }
    state.busy = true;
    try {
      await refresh();
      setStatus('Live');
      announce(state.headline);
      document.body.dataset.updated = String(Date.now());
    } catch (e) {
      setStatus(`Cannot reach sluice: ${e.message}`, 'error');
    }
    state.busy = false;
    const again = state.again;
    state.again = false;
    if (again)
      schedule(0);
    else if (!state.paused)
      schedule(POLL_MS);
  }

  /* An update now, even while paused (after a click: advancing the clock,
   * choosing a table). */
  function refreshNow() {
    state.force = true;
    if (state.busy)
      state.again = true;
    else
      schedule(0);
  }

  /* ---- header: clock ---- */

  function renderClock(clock) {
    const manual = clock.mode === 'manual';
    const mode = $('clock-mode');
    mode.textContent = manual ? 'manual clock' : clock.mode === 'real' ? 'real clock' : `${clock.mode} clock`;
    mode.classList.toggle('manual', manual);
    const t = $('clock-now');
    t.textContent = clockText(clock.now_ms);
    t.setAttribute('datetime', new Date(clock.now_ms).toISOString());
    $('clock-advance').hidden = !manual;
  }

  async function advance(ms, button) {
    button.disabled = true;
    try {
      await api('/_sluice/clock', {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({advance_ms: ms}),
      });
      refreshNow();
    } catch (e) {
      setStatus(`Could not advance the clock: ${e.message}`, 'error');
    } finally {
      button.disabled = false;
    }
  }

  /* ---- header: window ---- */

  function renderWindow() {
    for (const b of document.querySelectorAll('#window-buttons button')) {
      const on = b.dataset.window === 'auto' ? !state.windowChosen : state.windowChosen && b.dataset.window === state.window.key;
      b.setAttribute('aria-pressed', on ? 'true' : 'false');
    }
    const note = $('window-note');
    const text = state.windowChosen ? `charts and counts cover ${lastW()}`
      : `auto: ${lastW()}, the shortest window with throttles`;
    if (note.textContent !== text)
      note.textContent = text;
    $('throttles-h').textContent = `Throttles (${state.window.label})`;
  }

  function chooseWindow(key) {
    state.choices++;
    state.windowChosen = key !== 'auto';
    if (state.windowChosen)
      state.window = WINDOWS.find((W) => W.key === key) || WINDOWS[0];
    refreshNow();
  }

  /* ---- tables list ---- */

  function settingsText(t, cap) {
    const res = cap && cap.resources && cap.resources.find((r) => r.kind === 'table');
    if (t.mode === 'PROVISIONED')
      return [`${num(t.read_capacity_units, 0)} RCU/s · ${num(t.write_capacity_units, 0)} WCU/s`,
        res && res.settings.adaptive_capacity ? 'adaptive capacity on' : null];
    if (!res)
      return ['pay per request'];
    const st = res.settings;
    const max = [];
    if (st.max_read_request_units > 0)
      max.push(`${num(st.max_read_request_units, 0)} RRU/s`);
    if (st.max_write_request_units > 0)
      max.push(`${num(st.max_write_request_units, 0)} WRU/s`);
    const warm = [];
    if (st.warm_read_units_per_second > 0)
      warm.push(`${num(st.warm_read_units_per_second, 0)} reads/s`);
    if (st.warm_write_units_per_second > 0)
      warm.push(`${num(st.warm_write_units_per_second, 0)} writes/s`);
    return [max.length ? `maximum ${max.join(' · ')}` : 'no maximum',
      `previous peak ${num(res.previous_peak.read, 0)} RRU · ${num(res.previous_peak.write, 0)} WRU`,
      warm.length ? `warm ${warm.join(' · ')}` : null];
  }

  function renderTables(tables, caps) {
    const body = $('tables-body');
    if (!tables.length) {
      replaceKeepingFocus(body, h('tr', null, h('td', {colspan: 9, class: 'empty'},
          'No tables yet. Create one with any AWS SDK or the AWS CLI (endpoint ', location.origin, ').')));
      return;
    }
    const rows = tables.map((t) => {
      if (t.deleted)
        return deletedRow(t);
      const cap = caps.get(t.name);
      const selected = t.name === state.selected;
      const hot = cap ? hotCount(cap) : 0;
      const [main, ...rest] = settingsText(t, cap);
      const thr = t.throttle_events || 0;
      return h('tr', {class: [selected ? 'selected' : '', thr ? 'throttled' : ''].join(' ').trim() || null,
        'data-throttles': String(thr)},
        h('th', {scope: 'row'}, h('button', {
          type: 'button',
          'aria-pressed': selected ? 'true' : 'false',
          'aria-label': `${t.name}: show its capacity`,
          'data-focus': `table:${t.name}`,
          onclick: () => select(t.name),
        }, t.name)),
        h('td', null, t.status),
        h('td', null, t.mode === 'PROVISIONED' ? 'Provisioned' : 'On-demand',
          h('span', {class: 'sub mono', text: t.mode})),
        h('td', null, main, rest.filter(Boolean).map((x) => h('span', {class: 'sub', text: x})),
          t.stream ? h('span', {class: 'sub stream', text: `stream ${t.stream.view_type} · ` +
            `${plural(t.stream.open_shards, 'open shard')}${t.stream.shards > t.stream.open_shards
              ? `, ${num(t.stream.shards - t.stream.open_shards, 0)} closed` : ''}`}) : null),
        h('td', {class: 'num'}, num(t.item_count, 0)),
        h('td', {class: 'num'}, bytes(t.size_bytes)),
        h('td', {class: 'num'}, num(t.partitions, 0),
          hot ? h('span', {class: 'sub'}, h('span', {class: 'badge hot', text: `${hot} HOT`})) : null),
        throttlesCell(t),
        h('td', null, indexCell(t, cap)));
    });
    replaceKeepingFocus(body, rows);
  }

  function throttlesCell(t) {
    const thr = t.throttle_events || 0;
    return h('td', {class: 'num'}, thr
      ? [h('span', {class: 'badge thr', text: 'THROTTLED'}), ' ', h('strong', {text: num(thr, 0)}),
        t.last_throttle_ms !== null && t.last_throttle_ms !== undefined
          ? h('span', {class: 'sub', text: state.window.s > 300
            /* beyond 5 minutes the count comes from the per-minute ring */
            ? `last in the minute ${timeOfDay(t.last_throttle_ms).slice(0, 5)}`
            : `last at ${timeOfDay(t.last_throttle_ms).slice(0, 8)}`}) : null]
      : h('span', {class: 'sub', text: '0'}));
  }

  /* A deleted table's last incarnation: what its metrics kept. */
  function deletedRow(t) {
    const key = deletedKey(t.name);
    const selected = key === state.selected;
    const thr = t.throttle_events || 0;
    return h('tr', {class: ['deleted', selected ? 'selected' : '', thr ? 'throttled' : ''].join(' ').trim(),
      'data-throttles': String(thr), 'data-deleted': 'true'},
      h('th', {scope: 'row'}, h('button', {
        type: 'button',
        'aria-pressed': selected ? 'true' : 'false',
        'aria-label': `${t.name} (deleted): show what it recorded`,
        'data-focus': `table:${key}`,
        onclick: () => select(key),
      }, t.name), h('span', {class: 'sub', text: 'deleted incarnation'})),
      h('td', null, h('span', {class: 'badge gone', text: 'DELETED'}),
        h('span', {class: 'sub', text: `at ${clockText(t.deleted_ms)}`})),
      h('td', {colspan: 5}, h('span', {class: 'sub', text:
        'Its metrics and throttle events are kept until the name is deleted again; ' +
        'settings, items and partitions went with the table.'})),
      throttlesCell(t),
      h('td', null, (t.indexes || []).length
        ? ['GSI ', t.indexes.map((n, k) => [k ? ', ' : '', h('span', {class: 'mono', text: n})])]
        : h('span', {class: 'sub', text: '—'})));
  }

  /* GSIs have their own capacity and throttles; LSIs share the table's:
   * their item collections are what can fill up (10 GB per partition-key
   * value), so the largest is shown. */
  function indexCell(t, cap) {
    const ic = cap && cap.item_collections;
    const big = ic && ic.largest && ic.largest[0];
    const gsis = (t.indexes || []).filter((i) => i.global);
    const lsis = (t.indexes || []).filter((i) => !i.global);
    if (!gsis.length && !lsis.length)
      return h('span', {class: 'sub', text: 'none'});
    return [
      gsis.length ? h('div', null, 'GSI ', gsis.map((i, k) => [k ? ', ' : '', h('span', {class: 'mono', text: i.name}),
        i.throttle_events ? h('strong', {class: 'thr', text: ` ${num(i.throttle_events, 0)} throttles`}) : ''])) : null,
      lsis.length ? h('div', null, 'LSI ', lsis.map((i, k) => [k ? ', ' : '', h('span', {class: 'mono', text: i.name})]),
        h('span', {class: 'sub', text: 'shares the table’s capacity'}),
        big ? h('span', {class: `sub${big.bytes >= 0.8 * ic.limit_bytes ? ' warnc' : ''}`,
          text: `largest item collection ${bytes(big.bytes)} of ${bytes(ic.limit_bytes)} (${pct(big.bytes / ic.limit_bytes)})`}) : null) : null,
    ];
  }

  function select(name) {
    state.choices++;
    state.selected = name;
    state.chosen = true;
    history.replaceState(null, '', `#${encodeURIComponent(name)}`);
    refreshNow();
  }

  function renderNoTable() {
    state.headline = '';
    replaceKeepingFocus($('detail'));
  }

  /* ---- charts ---- */

  function niceStep(raw) {
    if (!(raw > 0))
      return 1;
    const p = Math.pow(10, Math.floor(Math.log10(raw)));
    const f = raw / p;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10) * p;
  }

  function frame(W, H, M, start, end, top, yUnit, label) {
    const pw = W - M.l - M.r;
    const ph = H - M.t - M.b;
    const step = niceStep(top / 4);
    const yMax = Math.max(step, Math.ceil(top / step) * step);
    const x = (t) => M.l + ((t - start) / (end - start)) * pw;
    const y = (v) => M.t + ph - (Math.max(0, v) / yMax) * ph;
    const svg = s('svg', {viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': label},
      s('title', {text: label}));
    for (let v = 0; v <= yMax + step / 2; v += step) {
      svg.append(s('line', {class: 'grid', x1: M.l, x2: W - M.r, y1: y(v), y2: y(v)}));
      svg.append(s('text', {x: M.l - 6, y: y(v) + 4, 'text-anchor': 'end', text: num(v, step < 1 ? 2 : 0)}));
    }
    svg.append(s('text', {
      x: 12, y: M.t + ph / 2, 'text-anchor': 'middle',
      transform: `rotate(-90 12 ${M.t + ph / 2})`, text: yUnit,
    }));
    for (let k = 0; k <= 4; k++) {
      const t = end - (k * (end - start)) / 4;
      svg.append(s('line', {class: 'axis', x1: x(t), x2: x(t), y1: M.t + ph, y2: M.t + ph + 4}));
      svg.append(s('text', {
        x: x(t), y: H - 6, 'text-anchor': k === 0 ? 'end' : 'middle',
        text: k === 0 ? 'now' : ago(((end - start) * k) / 4),
      }));
    }
    svg.append(s('line', {class: 'axis', x1: M.l, x2: W - M.r, y1: M.t + ph, y2: M.t + ph}));
    return {svg, x, y, pw, ph, yMax};
  }

  const CHART = {W: 560, H: 206, M: {l: 56, r: 12, t: 24, b: 26}};

  /* Charts are drawn at the size they are shown (text at its CSS size):
   * three to a row on a wide screen, two or one on narrower ones. */
  function chartLayout() {
    const detail = $('detail');
    const inner = (detail && detail.clientWidth ? detail.clientWidth : 1200) - 2 * 21;
    const cols = inner >= 1020 ? 3 : inner >= 680 ? 2 : 1;
    CHART.W = Math.max(260, Math.floor((inner - (cols - 1) * 16) / cols) - 2 * 12 - 2);
    return cols;
  }

  function consumedChart(ctx) {
    const {res, dir, start, end, limit, history, plimit, tableName, period} = ctx;
    /* Per-second rates: a longer period's sum is averaged over it. */
    const points = ctx.points.map((p) => ({t: p.t, v: p.v / period}));
    const per = period === 1 ? '' : ` (average per ${periodText(period)})`;
    const peak = points.reduce((m, p) => Math.max(m, p.v), 0);
    const latest = points.length && points[points.length - 1].t >= end - 2000 * period ? points[points.length - 1].v : 0;
    const showP = plimit && limit && plimit < limit.v * 0.98;
    /* The scale includes a limit line unless it is more than 8 times the
     * peak (the data would be a flat line at the bottom): such limits are
     * named at the top edge instead. */
    const lines = [limit ? Math.max(limit.v, ...history.map((p) => p.v)) : 0, showP ? plimit : 0].filter((v) => v > 0);
    const inScale = peak > 0 ? lines.filter((v) => v <= 8 * peak) : lines;
    const top = Math.max(peak, ...inScale) * 1.12;
    const label = `${dir.Cap}s consumed per second${per} on ${resourceLabel(res, tableName)}, ${lastW()}: ` +
      `latest ${units(latest)} ${dir.unit}/s, peak ${units(peak)} ${dir.unit}/s` +
      (limit ? `; limit ${units(limit.v)} ${dir.unit}/s (${limit.what})` : '') +
      (plimit ? `; ${units(plimit)} ${dir.unit}/s per partition` : '') + '.';
    const {svg, x, y, yMax} = frame(CHART.W, CHART.H, CHART.M, start, end, top || 1, `${dir.unit}/s`, label);
    const above = [];
    const bars = s('g', {'aria-hidden': 'true'});
    for (const p of points) {
      if (p.t < start || p.t >= end || !(p.v > 0))
        continue;
      const x0 = x(p.t);
      const w = Math.max(1.5, x(p.t + period * 1000) - x0 - 1);
      bars.append(s('rect', {class: 'bar', x: x0 + 0.5, y: y(p.v), width: w, height: y(0) - y(p.v)},
        s('title', {text: `${timeOfDay(p.t)}: ${units(p.v)} ${dir.unit}/s${per}`})));
    }
    svg.append(bars);
    /* Auto scaling activities: a marker where each started. */
    const acts = (ctx.scaling || []).filter((a) => a.start_ms >= start && a.start_ms < end);
    for (const a of acts) {
      const xa = x(a.start_ms);
      svg.append(s('g', {class: `scale ${a.status === 'Successful' ? 'ok' : 'failed'}`, 'data-scaling': a.status},
        s('title', {text: `${timeOfDay(a.start_ms).slice(0, 8)} auto scaling (${a.status}): ${a.description}`}),
        s('line', {x1: xa, x2: xa, y1: y(yMax), y2: y(0)}),
        /* near the right edge the label goes left of its line */
        s('text', {x: xa > x(end) - 60 ? xa - 3 : xa + 3, y: y(yMax) + 10, 'text-anchor': xa > x(end) - 60 ? 'end' : 'start',
          text: a.status === 'Successful' ? '⇅ scaled' : '⇅ failed'})));
    }
    if (limit && limit.v > yMax)
      above.push(`${resourceKindWord(res)} ${units(limit.v)}`);
    if (showP && plimit > yMax)
      above.push(`partition ${units(plimit)}`);
    if (above.length)
      svg.append(s('text', {class: 'limit-label', x: x(end), y: 10, 'text-anchor': 'end',
        text: `limits above the chart ↑ ${above.join(' · ')} ${dir.unit}/s`}));
    if (limit && limit.v <= yMax) {
      const steps = history.length ? history : [{t: start, v: limit.v}];
      let d = `M ${x(start)} ${y(steps[0].v)}`;
      for (const st of steps.slice(1))
        if (st.t > start)
          d += ` H ${x(Math.min(st.t, end))} V ${y(st.v)}`;
      d += ` H ${x(end)}`;
      svg.append(s('path', {class: 'limit', d}));
      svg.append(s('text', {
        class: 'limit-label', x: x(end) - 4, y: y(limit.v) - 5, 'text-anchor': 'end',
        text: `limit ${units(limit.v)} ${dir.unit}/s`,
      }));
    }
    if (showP && plimit <= yMax) {
      svg.append(s('line', {class: 'plimit', x1: x(start), x2: x(end), y1: y(plimit), y2: y(plimit)}));
      svg.append(s('text', {
        class: 'plimit-label', x: x(start) + 4, y: y(plimit) - 5,
        text: `per partition ${units(plimit)} ${dir.unit}/s`,
      }));
    }
    if (!points.some((p) => p.v > 0))
      svg.append(s('text', {class: 'nodata', x: x((start + end) / 2), y: y(0) - 12, 'text-anchor': 'middle',
        text: `no ${dir.noun} in ${lastW()}`}));
    return h('figure', {class: 'chart'},
      h('figcaption', null, `${dir.Cap}s: consumed vs limit`,
        h('span', {class: 'note'},
          `${dir.unit}/s${per} · peak ${units(peak)} · limit ${limit ? units(limit.v) : '—'}`,
          plimit ? `, ${units(plimit)} per partition` : '')),
      svg,
      h('ul', {class: 'legend', 'aria-hidden': 'true'},
        h('li', null, h('span', {class: 'swatch consumed'}), `consumed ${dir.unit}/s`),
        limit ? h('li', null, h('span', {class: 'swatch line'}), `${resourceKindWord(res)} limit`) : null,
        showP ? h('li', null, h('span', {class: 'swatch pline'}), 'partition limit') : null,
        acts.length ? h('li', null, h('span', {class: 'swatch sline'}), `auto scaling (${num(acts.length, 0)})`) : null));
  }

  const resourceKindWord = (res) => (res.kind === 'index' ? 'index' : 'table');

  function throttleChart(ctx) {
    const {res, data, start, end, tableName, period} = ctx;
    const per = periodText(period);
    const layers = [];
    for (const dir of DIRS)
      for (const limit of LIMITS) {
        const pts = data[`throttled:${dir.key}:${limit.key}`];
        if (!pts)
          continue;
        const inWindow = pts.filter((p) => p.t >= start && p.t < end && p.v > 0);
        const total = inWindow.reduce((a, p) => a + p.v, 0);
        if (total > 0)
          layers.push({dir, limit, pts: inWindow, total, name: reasonName(res, dir, limit)});
      }
    const bySecond = new Map();
    for (const L of layers)
      for (const p of L.pts)
        bySecond.set(p.t, (bySecond.get(p.t) || 0) + p.v);
    const peak = Math.max(0, ...bySecond.values());
    const total = layers.reduce((a, L) => a + L.total, 0);
    const label = total
      ? `Throttled events per ${per} on ${resourceLabel(res, tableName)}, ${lastW()}, by reason: ` +
        layers.map((L) => `${L.name} ${num(L.total, 0)}`).join(', ') + '.'
      : `No throttled events on ${resourceLabel(res, tableName)} in ${lastW()}.`;
    const yUnit = period === 1 ? 'events/s' : period === 60 ? 'events/min' : 'events/10 min';
    const {svg, x, y} = frame(CHART.W, CHART.H, CHART.M, start, end, Math.max(peak, 4) * 1.12, yUnit, label);
    const id = `p${++state.uid}`;
    const defs = s('defs');
    svg.prepend(defs);
    const base = new Map();
    const marks = s('g', {'aria-hidden': 'true'});
    for (const L of layers) {
      let fill = null;
      if (L.dir.key === 'read') {
        const pid = `${id}-${L.limit.cls}`;
        defs.append(s('pattern', {
          id: pid, width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)',
        }, s('rect', {class: `hatchbg r-${L.limit.cls}`, width: 6, height: 6}),
        s('line', {class: `hatch r-${L.limit.cls}`, x1: 1.5, y1: 0, x2: 1.5, y2: 6})));
        fill = `url(#${pid})`;
      }
      for (const p of L.pts) {
        const b = base.get(p.t) || 0;
        const x0 = x(p.t);
        marks.append(s('rect', {
          class: `${fill ? 'segr' : 'seg'} r-${L.limit.cls}`, fill,
          x: x0 + 0.5, y: y(b + p.v), width: Math.max(1.5, x(p.t + period * 1000) - x0 - 1),
          height: y(b) - y(b + p.v),
        }, s('title', {text: `${timeOfDay(p.t)}: ${num(p.v, 0)} × ${L.name}`})));
        base.set(p.t, b + p.v);
      }
    }
    svg.append(marks);
    if (!total)
      svg.append(s('text', {class: 'nodata', x: x((start + end) / 2), y: y(0) - 12, 'text-anchor': 'middle',
        text: `no throttled events in ${lastW()}`}));
    return h('figure', {class: 'chart'},
      h('figcaption', null, 'Throttled events, stacked by reason',
        h('span', {class: 'note'}, `events per ${per} · ${plural(total, 'event')} in ${lastW()}`)),
      svg,
      h('ul', {class: 'legend'}, layers.length
        ? layers.map((L) => h('li', null,
          h('span', {class: `swatch ${L.dir.key === 'read' ? 'hatched' : 'solid'} r-${L.limit.cls}`, 'aria-hidden': 'true'}),
          reasonTag(L.name), h('span', {text: `${num(L.total, 0)}`})))
        : h('li', null, 'reads hatched, writes solid; reasons appear here when something throttles')));
  }

  /* ---- partitions ---- */

  function meterRow(label, fraction, text, over) {
    const f = Math.max(0, Math.min(1, fraction || 0));
    return [
      h('span', {class: 'lbl', text: label}),
      h('span', {class: 'track', role: 'presentation'},
        h('span', {class: `fill${over ? ' over' : ''}`, style: {width: `${(f * 100).toFixed(1)}%`}})),
      h('span', {class: 'txt', text}),
    ];
  }

  function partitionCell(p, dir, uniform) {
    const d = p[dir.key];
    const idle = d.consumed_last_minute === 0 && d.throttles === 0 && d.level >= d.cap;
    const limitText = uniform ? '' : `limit ${units(d.rate)} ${dir.unit}/s`;
    if (idle)
      return h('td', null, h('span', {class: 'sub', text: limitText ? `idle · ${limitText}` : 'idle'}));
    const burst = d.cap > 0 ? (d.cap - d.level) / d.cap : 0;
    const minute = d.rate > 0 ? d.consumed_last_minute / (d.rate * 60) : 0;
    const left = Math.max(0, d.level);
    return h('td', null,
      h('div', {class: 'meter'},
        meterRow('burst', burst, `${pct(Math.max(0, Math.min(1, burst)))} used · ${units(left)} of ${units(d.cap)} ${dir.unit} left`,
          burst >= 0.999),
        meterRow('1 min', minute, `${units(d.consumed_last_minute)} ${dir.unit} · ${pct(minute)} of 60 s at the limit`,
          minute >= 0.9)),
      limitText || inWindow(d)
        ? h('span', {class: 'sub'}, limitText, limitText && inWindow(d) ? ' · ' : '',
          inWindow(d) ? h('strong', {class: 'thr', text: `${plural(inWindow(d), 'throttle')} in ${lastW()}`}) : '')
        : null);
  }

  /* A direction's throttles in the window (the server counts them per
   * partition over the same window as the table list). */
  const inWindow = (d) => (d.throttles_in_window !== undefined ? d.throttles_in_window : d.throttles) || 0;

  /* A partition's throttles in the window and since it came to be
   * (created or split), and the last one's time, in one direction or both. */
  function partThrottles(p, dir) {
    const ds = dir ? [dir] : DIRS;
    const n = ds.reduce((a, d) => a + inWindow(p[d.key]), 0);
    const total = ds.reduce((a, d) => a + (p[d.key].throttles || 0), 0);
    const last = Math.max(-1, ...ds.map((d) => (p[d.key].last_throttle_ms === null || p[d.key].last_throttle_ms === undefined ? -1 : p[d.key].last_throttle_ms)));
    return {n, total, last};
  }

  const throttledSince = (p, start, dir) => partThrottles(p, dir).n > 0;

  function throttleText(p) {
    const t = partThrottles(p);
    return `throttled ${plural(t.n, 'time')} in ${lastW()}, last at ${timeOfDay(t.last).slice(0, 8)}`;
  }

  function partitionState(p, start) {
    const t = partThrottles(p);
    if (p.hot)
      return [h('span', {class: 'badge hot', title: 'hot: near or over its own limit now', text: 'HOT'}),
        t.n ? h('span', {class: 'sub', text: throttleText(p)}) : null];
    if (t.n)
      return [h('span', {class: 'badge thr', title: 'throttled in the window, not hot now', text: 'THROTTLED'}),
        h('span', {class: 'sub', text: throttleText(p)})];
    if (t.total)
      return [h('span', {class: 'badge cool', text: 'normal'}),
        h('span', {class: 'sub', text: `none in ${lastW()}; ${plural(t.total, 'throttle')} before the window, last at ${clockText(t.last)}`})];
    return h('span', {class: 'badge cool', text: 'normal'});
  }

  function partitionsTable(res, tableName, start) {
    const parts = res.partitions || [];
    const hot = parts.filter((p) => p.hot).length;
    const throttled = parts.filter((p) => throttledSince(p, start)).length;
    const uniform = {};
    for (const dir of DIRS)
      uniform[dir.key] = parts.length > 0 && parts.every((p) => p[dir.key].rate === parts[0][dir.key].rate);
    const head = (dir) => uniform[dir.key]
      ? [`${dir.Cap}s`, h('span', {class: 'sub', text: `limit ${units(parts[0][dir.key].rate)} ${dir.unit}/s each`})]
      : `${dir.Cap}s (${dir.unit})`;
    const rows = parts.map((p) => {
      const share = keySpace(p.hash_range);
      const thr = throttledSince(p, start);
      return h('tr', {class: p.hot ? 'hot' : thr ? 'throttled' : null, 'data-partition': p.index,
        'data-hot': p.hot ? 'true' : 'false', 'data-throttled': thr ? 'true' : 'false'},
        h('th', {scope: 'row', class: 'num'}, String(p.index)),
        h('td', null, partitionState(p, start)),
        h('td', {class: 'range'},
          h('span', {class: 'mono', text: `${p.hash_range[0]} – ${p.hash_range[1] === '10000000000000000' ? 'end' : p.hash_range[1]}`}),
          h('span', {class: 'sub', text: share === null ? '' : `${pct(share)} of the key space${p.sort_split ? ', split on sort key' : ''}`})),
        h('td', {class: 'num'}, bytes(p.stored_bytes)),
        partitionCell(p, DIRS[0], uniform.write),
        partitionCell(p, DIRS[1], uniform.read));
    });
    const sp = res.split || {};
    const splits = (sp.splits_for_heat || 0) + (sp.splits_for_size || 0);
    return h('div', {class: 'scroll'},
      h('table', {class: 'partitions'},
        h('caption', null,
          `Partitions of ${resourceLabel(res, tableName)}: ${plural(parts.length, 'partition')}, ${hot} hot now, ` +
          `${throttled} throttled in ${lastW()}. ` +
          'Each partition is limited on its own; “burst” is its token bucket now, “1 min” its consumption ' +
          'over the last minute against its limit; throttle counts cover the window (a split partition’s stay with its left half).' +
          (splits ? ` Splits so far: ${sp.splits_for_heat} for heat, ${sp.splits_for_size} for size.` : '') +
          (sp.hot_since_ms && hot ? ` Hot since ${clockText(sp.hot_since_ms)}.` : '')),
        h('thead', null, h('tr', null,
          h('th', {scope: 'col', class: 'num'}, '#'),
          h('th', {scope: 'col'}, 'State'),
          h('th', {scope: 'col'}, 'Hash range'),
          h('th', {scope: 'col', class: 'num'}, 'Stored'),
          h('th', {scope: 'col'}, head(DIRS[0])),
          h('th', {scope: 'col'}, head(DIRS[1])))),
        h('tbody', null, rows)));
  }

  /* ---- top keys ---- */

  function keyName(e) {
    return e.sort_key !== undefined && e.sort_key !== null ? `${e.partition_key} / ${e.sort_key}` : e.partition_key;
  }

  /* Contributor Insights counts come from a space-saving sketch: a count
   * may be above the key's true weight by up to max_overcount ("≈"). */
  function keyTable(title, caption, entries, valueOf, unit, thr) {
    const top = entries.slice(0, 8);
    const max = Math.max(1e-9, ...top.map(valueOf));
    const over = (e) => e.max_overcount || 0;
    return h('div', null,
      h('h4', null, title),
      top.length
        ? h('table', {class: 'keys'},
          h('caption', {class: 'vh'}, caption),
          h('thead', null, h('tr', null,
            h('th', {scope: 'col'}, 'Key'),
            h('th', {scope: 'col', class: 'num'}, unit))),
          h('tbody', null, top.map((e) => h('tr', null,
            h('td', {class: 'key', text: keyName(e)}),
            h('td', {class: 'num', title: over(e) ? `estimate: at most ${num(over(e), 1)} above the true value` : null},
              h('span', {class: `keybar${thr ? ' thr' : ''}`, 'aria-hidden': 'true',
                style: {width: `${Math.max(2, (valueOf(e) / max) * 80)}px`}}),
              over(e) ? `≈ ${num(valueOf(e), 1)}` : num(valueOf(e), 1),
              over(e) ? h('span', {class: 'vh', text: ` (estimated, at most ${num(over(e), 1)} over)`}) : null)))))
        : h('p', {class: 'empty'}, 'none in this period'));
  }

  /* Throttled keys of the events, grouped as Contributor Insights groups
   * them: by partition key, with its sort keys under it, so one hot
   * partition key written with many sort keys is one culprit. */
  function eventKeys(events, res) {
    const byPk = new Map();
    for (const e of events || []) {
      if ((e.index || null) !== (res.kind === 'index' ? res.name : null))
        continue;
      let g = byPk.get(e.partition_key);
      if (!g) {
        g = {partition_key: e.partition_key, n: 0, sorts: new Map()};
        byPk.set(e.partition_key, g);
      }
      g.n++;
      if (e.sort_key !== null && e.sort_key !== undefined)
        g.sorts.set(e.sort_key, (g.sorts.get(e.sort_key) || 0) + 1);
    }
    return [...byPk.values()].sort((a, b) => b.n - a.n).map((g) => Object.assign(g, {
      sorts: [...g.sorts.entries()].sort((a, b) => b[1] - a[1]).map(([sort_key, n]) => ({sort_key, n})),
    }));
  }

  /* The key attribute names of a resource, every one in KeySchema order
   * ({partitions: [...], sorts: [...]}; a multi-attribute GSI key has up to
   * four of each). */
  function keySchemaOf(table, res) {
    const src = res.kind === 'index' ? (table.indexes || []).find((i) => i.name === res.name) : table;
    if (!src)
      return {partitions: [], sorts: []};
    return {
      partitions: src.partition_keys || (src.partition_key ? [src.partition_key] : []),
      sorts: src.sort_keys || (src.sort_key ? [src.sort_key] : []),
    };
  }

  /* Names as a key value is printed: one attribute alone, a tuple of them as
   * "[a, b]" (the form the server prints a tuple's values in). */
  const tupleName = (names) => (names.length > 1 ? `[${names.join(', ')}]` : names[0]);

  /* The key attribute names of a resource ({partition, sort}), as printed
   * beside key values. */
  function keyAttrs(table, res) {
    const k = keySchemaOf(table, res);
    return {partition: k.partitions.length ? tupleName(k.partitions) : 'partition key',
      sort: k.sorts.length ? tupleName(k.sorts) : null};
  }

  function groupedKeyTable(title, caption, groups, attrs) {
    const top = groups.slice(0, 8);
    const max = Math.max(1, ...top.map((g) => g.n));
    const rows = [];
    for (const g of top) {
      rows.push(h('tr', {class: 'pk'},
        h('td', {class: 'key', text: `${attrs.partition}=${g.partition_key}`},
          g.sorts.length ? h('span', {class: 'sub', text: `${plural(g.sorts.length, 'sort key')}`}) : null),
        h('td', {class: 'num'},
          h('span', {class: 'keybar thr', 'aria-hidden': 'true', style: {width: `${Math.max(2, (g.n / max) * 80)}px`}}),
          num(g.n, 0))));
      for (const sk of g.sorts.slice(0, 3))
        rows.push(h('tr', {class: 'sk'},
          h('td', {class: 'key sk', text: `${attrs.sort || 'sort key'}=${sk.sort_key}`}),
          h('td', {class: 'num', text: num(sk.n, 0)})));
      if (g.sorts.length > 3)
        rows.push(h('tr', {class: 'sk'}, h('td', {class: 'key sk sub', colspan: 2,
          text: `… and ${plural(g.sorts.length - 3, 'more sort key')}`})));
    }
    return h('div', null, h('h4', null, title),
      h('table', {class: 'keys'},
        h('caption', {class: 'vh'}, caption),
        h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'Key'), h('th', {scope: 'col', class: 'num'}, 'events'))),
        h('tbody', null, rows)));
  }

  function insightsFor(insights, res) {
    if (!insights || insights.error || !insights.resources)
      return null;
    const want = res.kind === 'index' ? res.name : null;
    return insights.resources.find((r) => (r.index || null) === want) || null;
  }

  function topKeys(res, table, insights, events) {
    const tableName = table.name;
    const ci = insightsFor(insights, res);
    const section = h('div', {class: 'topkeys'}, h('h3', null, 'Top keys'));
    if (ci) {
      const acc = ci.most_accessed_keys || {};
      const thr = ci.most_throttled_keys || {};
      const hasSort = (acc.partition_and_sort_key || []).length || (thr.partition_and_sort_key || []).length;
      section.append(h('p', {class: 'sub'},
        `Contributor Insights (${ci.mode}), last ${plural(ci.minutes, 'minute')}. ` +
        'Consumed throughput units = 3 × WCU + RCU; “≈” marks an estimate that may be high.'));
      section.append(h('div', {class: 'two'},
        keyTable('Most accessed partition keys', 'Most accessed partition keys by consumed throughput units',
          acc.partition_key || [], (e) => e.consumed_throughput_units, 'units', false),
        keyTable('Most throttled partition keys', 'Most throttled partition keys by throttle count',
          thr.partition_key || [], (e) => e.throttle_count, 'throttles', true),
        hasSort ? keyTable('Most accessed keys (partition / sort)', 'Most accessed partition and sort keys',
          acc.partition_and_sort_key || [], (e) => e.consumed_throughput_units, 'units', false) : null,
        hasSort ? keyTable('Most throttled keys (partition / sort)', 'Most throttled partition and sort keys',
          thr.partition_and_sort_key || [], (e) => e.throttle_count, 'throttles', true) : null));
      return section;
    }
    const available = insights && !insights.error;
    const focusKey = `ci:${tableName}/${res.kind === 'index' ? res.name : ''}`;
    const off = h('div', {class: 'ci-off'},
      h('p', null, available
        ? `Contributor Insights is off for this ${resourceKindWord(res)}: turn it on to see its most accessed and most throttled keys.`
        : 'Contributor Insights data is not available from this server.'),
      available ? h('button', {
        type: 'button', 'data-focus': focusKey,
        onclick: (ev) => enableInsights(ev.currentTarget, tableName, res),
      }, `Enable Contributor Insights on ${res.kind === 'index' ? `index ${res.name}` : `table ${res.name}`}`) : null);
    section.append(off);
    const keys = eventKeys(events && events.events, res);
    if (keys.length)
      section.append(groupedKeyTable(`Throttled keys in the recent events (${lastW()})`,
        'Throttled partition keys counted from recent throttle events, with their sort keys',
        keys, keyAttrs(table, res)));
    return section;
  }

  async function enableInsights(button, table, res) {
    button.disabled = true;
    try {
      /* The admin API, not a DynamoDB call: the page has no credentials to
       * sign one with (sluice serve --auth sigv4). */
      const body = {action: 'ENABLE'};
      if (res.kind === 'index')
        body.index = res.name;
      await api(`/_sluice/tables/${encodeURIComponent(table)}/insights`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify(body),
      });
      announce(`Contributor Insights enabled on ${resourceLabel(res, table)}`);
      refreshNow();
    } catch (e) {
      setStatus(`Could not enable Contributor Insights: ${e.message}`, 'error');
      button.disabled = false;
    }
  }

  /* ---- recent events ---- */

  /* Events (newest first) grouped by what they have in common but the
   * time; groups are ordered by their newest event. */
  function groupEvents(events) {
    const groups = new Map();
    for (const e of events) {
      const key = [e.operation, e.exception, e.index || '', e.direction, (e.reasons || []).join(','),
        e.partition, e.partition_key, e.sort_key || ''].join('\u0001');
      const g = groups.get(key);
      if (g) {
        g.n++;
        g.oldest = Math.min(g.oldest, e.time_ms);
      } else {
        groups.set(key, {e, n: 1, newest: e.time_ms, oldest: e.time_ms});
      }
    }
    return [...groups.values()].sort((a, b) => b.newest - a.newest || b.n - a.n);
  }

  function eventsSection(tableName, events) {
    const section = h('section', {class: 'panel-wide', 'aria-labelledby': 'events-h'},
      h('h2', {id: 'events-h'}, `Recent throttle events on ${tableName}`));
    if (!events || events.error) {
      section.append(h('p', {class: 'empty'}, 'Throttle events are not available from this server.'));
      return section;
    }
    const list = events.events || [];
    if (!list.length) {
      section.append(h('p', {class: 'empty'}, events.all
        ? `No throttled request on this table in ${lastW()}.` : 'No throttled request on this table yet.'));
      return section;
    }
    const groups = groupEvents(list).slice(0, 12);
    section.append(h('div', {class: 'scroll'}, h('table', {class: 'events'},
      h('caption', null,
        `The ${plural(list.length, 'most recent throttled event')} in ${lastW()} (the server keeps the last 1,000), ` +
        'grouped by key and reason (×N), most recent first.'),
      h('thead', null, h('tr', null,
        h('th', {scope: 'col'}, 'When (clock, UTC)'),
        h('th', {scope: 'col'}, 'Operation'),
        h('th', {scope: 'col'}, 'On'),
        h('th', {scope: 'col', class: 'num'}, 'Partition'),
        h('th', {scope: 'col'}, 'Key'),
        h('th', {scope: 'col'}, 'Exception'),
        h('th', {scope: 'col'}, 'Reasons'),
        h('th', {scope: 'col', class: 'num'}, 'Count'))),
      h('tbody', null, groups.map((g) => h('tr', null,
        h('td', {class: 'mono'}, h('time', {datetime: new Date(g.newest).toISOString(),
          text: g.oldest !== g.newest ? `${timeOfDay(g.oldest)} – ${timeOfDay(g.newest)}` : timeOfDay(g.newest)})),
        h('td', null, g.e.operation, h('span', {class: 'sub', text: g.e.direction})),
        h('td', null, g.e.index ? ['index ', h('span', {class: 'mono', text: g.e.index})] : 'table'),
        h('td', {class: 'num'}, g.e.partition === null ? '—' : String(g.e.partition)),
        h('td', {class: 'mono', text: keyName(g.e)}),
        h('td', {class: 'mono', text: g.e.exception}),
        h('td', null, (g.e.reasons || []).map(reasonTag)),
        h('td', {class: 'num count', text: `×${num(g.n, 0)}`})))))));
    return section;
  }

  /* ---- diagnosis ---- */

  function diagnose(table, cap, data) {
    const findings = [];
    const hotNotes = [];
    for (const {res, data: d} of data.resources) {
      const hotParts = (res.partitions || []).filter((p) => p.hot);
      const thrParts = (res.partitions || []).filter((p) => p.hot || throttledSince(p, data.start));
      for (const dir of DIRS) {
        const consumed = (d[`consumed:${dir.key}`] || []).filter((p) => p.t >= data.start && p.t < data.end);
        const peak = consumed.reduce((m, p) => Math.max(m, p.v), 0) / data.period;
        const limit = resourceLimit(res, dir);
        for (const lim of LIMITS) {
          const pts = d[`throttled:${dir.key}:${lim.key}`] || [];
          const n = pts.filter((p) => p.t >= data.start && p.t < data.end).reduce((a, p) => a + p.v, 0);
          if (!n)
            continue;
          const reason = reasonName(res, dir, lim);
          const parts = [];
          parts.push(h('strong', {text: `${plural(n, dir.noun.slice(0, -1))} to ${resourceLabel(res, table.name)}`}),
            ` throttled in ${lastW()} with `, reasonTag(reason), ` — ${lim.what} was hit.`);
          if (lim.cls === 'KeyRange') {
            const hp = thrParts.filter((p) => throttledSince(p, data.start, dir));
            const range = (p) => `hash ${p.hash_range[0].slice(0, 4)}… – ${p.hash_range[1] === '10000000000000000' ? 'end' : `${p.hash_range[1].slice(0, 4)}…`}`;
            const was = (p) => (p.hot ? `is hot (${throttleText(p)})` : `was hot: ${throttleText(p)}, not hot now`);
            if (hp.length === 1)
              parts.push(' ', h('strong', {text: `Partition ${hp[0].index}`}), ` (${range(hp[0])}) ${was(hp[0])}; it is limited to ` +
                `${units(hp[0][dir.key].rate)} ${dir.unit}/s, while the ${resourceKindWord(res)} as a whole used at most ` +
                `${units(peak)} of its ${limit ? units(limit.v) : '?'} ${dir.unit}/s.`);
            else if (hp.length > 1)
              parts.push(' ', h('strong', {text: `Partitions ${hp.map((p) => p.index).join(', ')}`}), ` throttled: each is limited to ` +
                `${units(hp[0][dir.key].rate)} ${dir.unit}/s, while the ${resourceKindWord(res)} as a whole used at most ` +
                `${units(peak)} of its ${limit ? units(limit.v) : '?'} ${dir.unit}/s.`);
          } else if (limit) {
            parts.push(` The ${resourceKindWord(res)} used up to ${units(peak)} ${dir.unit}/s against a limit of ` +
              `${units(limit.v)} ${dir.unit}/s (${limit.what}).`);
          }
          const key = topThrottledKey(table, res, dir, data);
          if (key && key.n >= 2)
            parts.push(' Most throttled partition key: ', h('code', {class: 'key', text: key.name}),
              ` (${plural(key.n, 'throttle')}${key.sorts > 1 ? `, over ${plural(key.sorts, 'sort key')}` : ''}).`);
          const injected = (state.faults || []).filter((r) => r.reason === reason && (!r.table || r.table === table.name));
          if (injected.length)
            parts.push(' ', h('span', {class: 'badge injected', text: 'INJECTED?'}),
              ` ${injected.map((r) => `fault rule ${r.id} injects ${reason} (${plural(r.hits, 'hit')})`).join('; ')}: ` +
              'some or all of these throttles may be injected, not real.');
          parts.push(' ', h('span', {class: 'fix'}, h('strong', null, 'Fix: '), `${lim.fix}.`));
          findings.push({n, reason, node: h('li', null, parts)});
        }
      }
      if (hotParts.length)
        hotNotes.push(`${resourceLabel(res, table.name)}: ${hotParts.length === 1 ? 'partition' : 'partitions'} ` +
          `${hotParts.map((p) => p.index).join(', ')}`);
    }
    findings.sort((a, b) => b.n - a.n);
    return {findings, hotNotes};
  }

  /* The most throttled partition key, as "pk=value": Contributor Insights'
   * when it is on, else the recent events' (grouped by partition key). */
  function topThrottledKey(table, res, dir, data) {
    const attrs = keyAttrs(table, res);
    const ci = insightsFor(data.insights, res);
    if (ci && ci.most_throttled_keys && (ci.most_throttled_keys.partition_key || []).length) {
      const e = ci.most_throttled_keys.partition_key[0];
      return {name: `${attrs.partition}=${e.partition_key}`, n: e.throttle_count, sorts: 0};
    }
    const evs = ((data.events && data.events.events) || []).filter((e) => e.direction === dir.key);
    const keys = eventKeys(evs, res);
    return keys.length ? {name: `${attrs.partition}=${keys[0].partition_key}`, n: keys[0].n, sorts: keys[0].sorts.length} : null;
  }

  function diagnosisSection(table, cap, data) {
    const {findings, hotNotes} = diagnose(table, cap, data);
    const alert = findings.length > 0;
    const section = h('section', {class: `diagnosis${alert ? ' alert' : ''}`, 'aria-labelledby': 'diag-h'});
    if (alert) {
      const head = findings[0];
      state.headline = `Throttling on ${table.name}: ${head.reason}`;
      section.append(h('h2', {id: 'diag-h'}, data.deleted ? `Why ${table.name} throttled before it was deleted`
        : `Why ${table.name} throttles`), h('ul', null, findings.map((f) => f.node)));
    } else {
      state.headline = hotNotes.length ? `Hot partitions on ${table.name}` : `No throttling on ${table.name}`;
      section.append(h('h2', {id: 'diag-h'}, `${table.name}: no throttling in ${lastW()}`),
        h('p', null, hotNotes.length
          ? `Hot, close to their own limit: ${hotNotes.join('; ')}.`
          : 'Every partition is below its limit.'));
    }
    return section;
  }

  /* ---- a resource ---- */

  function resourceSection(table, cap, entry, data) {
    const {res, data: d, metricsOk} = entry;
    if (data.deleted)
      return deletedResourceSection(table, entry, data);
    const facts = [];
    const mode = res.mode === 'PROVISIONED' ? 'provisioned' : 'on-demand';
    const cp = (state.config && state.config.capacity) || {};
    const tol = cp.key_range_tolerance_ppm ? ` + ${num(cp.key_range_tolerance_ppm / 1e4, 2)} %` : '';
    facts.push(h('li', null, 'mode ', h('strong', {text: mode})));
    const ks = keySchemaOf(table, res);
    if (ks.partitions.length)
      facts.push(h('li', {class: 'keyschema'}, ks.partitions.length > 1 ? 'partition key attributes ' : 'partition key ',
        h('strong', {class: 'mono', text: ks.partitions.join(', ')}),
        ks.sorts.length ? [ks.sorts.length > 1 ? ' · sort key attributes ' : ' · sort key ',
          h('strong', {class: 'mono', text: ks.sorts.join(', ')})] : ''));
    const lw = resourceLimit(res, DIRS[0]);
    const lr = resourceLimit(res, DIRS[1]);
    if (lw && lr) {
      let why = lw.what === lr.what ? lw.what : `writes: ${lw.what}; reads: ${lr.what}`;
      if (why === 'on-demand: twice the previous peak')
        why = `on-demand: 2 × previous peak of ${num(res.previous_peak.write, 0)} WCU/s · ${num(res.previous_peak.read, 0)} RCU/s${tol}`;
      else if (why === 'provisioned' && cp.burst_seconds)
        why = `provisioned, with up to ${num(cp.burst_seconds, 0)} s of unused capacity as burst`;
      facts.push(h('li', null, `${resourceKindWord(res)} limit `,
        h('strong', {text: `${units(lw.v)} WCU/s · ${units(lr.v)} RCU/s`}), ` (${why})`));
    }
    const pl = partitionLimit(res, DIRS[0]);
    const plr = partitionLimit(res, DIRS[1]);
    if (pl)
      facts.push(h('li', null, 'per partition ', h('strong', {text: `${units(pl)} WCU/s · ${units(plr)} RCU/s`}),
        cp.partition_write_rate ? ` (${num(cp.partition_write_rate, 0)} · ${num(cp.partition_read_rate, 0)}${tol})` : ''));
    facts.push(h('li', null, 'consumed in the last minute ',
      h('strong', {text: `${units(res.consumed_last_minute.write)} WCU · ${units(res.consumed_last_minute.read)} RCU`})));

    const cols = chartLayout();
    const charts = [];
    for (const dir of DIRS) {
      const limit = resourceLimit(res, dir);
      const history = limit
        ? recordLimit(`${table.name}/${res.kind}/${res.name}/${dir.key}`, cap.now_ms, limit.v, data.start)
        : [];
      charts.push(consumedChart({
        res, dir, points: d[`consumed:${dir.key}`] || [], start: data.start, end: data.end,
        limit, history, plimit: partitionLimit(res, dir), tableName: table.name, period: data.period,
        scaling: scalingOf(cap, res, dir),
      }));
    }
    charts.push(throttleChart({res, data: d, start: data.start, end: data.end, tableName: table.name, period: data.period}));
    const scaling = (cap.scaling_activities || []).filter((a) => (a.index || null) === (res.kind === 'index' ? res.name : null));

    const id = `res-${res.kind}-${res.name}`.replace(/[^A-Za-z0-9_-]/g, '_');
    return h('section', {class: 'resource', 'aria-labelledby': id},
      h('div', {class: 'resource-head'},
        h('span', {class: 'kind', text: res.kind === 'index' ? 'Global secondary index' : 'Table'}),
        h('h2', {id}, res.kind === 'index' ? `${res.name} (on ${table.name})` : res.name)),
      h('ul', {class: 'facts'}, facts),
      metricsOk ? null : h('p', {class: 'notice'}, 'Per-second metrics are not available from this server; charts are empty.'),
      h('div', {class: 'charts', style: {gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`}}, charts),
      scaling.length ? scalingList(scaling) : null,
      h('h3', null, 'Partitions'),
      partitionsTable(res, table.name, data.start),
      res.kind === 'table' ? collectionsSection(table, cap) : null,
      topKeys(res, table, data.insights, data.events));
  }

  /* Auto scaling activities of a resource in one direction (drawn on its
   * capacity chart). */
  const scalingOf = (cap, res, dir) => (cap.scaling_activities || []).filter((a) =>
    (a.index || null) === (res.kind === 'index' ? res.name : null) && a.direction === dir.key);

  function scalingList(acts) {
    return h('div', {class: 'scaling'},
      h('h3', null, `Auto scaling in ${lastW()}`),
      h('ul', null, acts.slice(0, 8).map((a) => h('li', {'data-scaling': a.status},
        h('time', {class: 'mono', datetime: new Date(a.start_ms).toISOString(), text: timeOfDay(a.start_ms).slice(0, 8)}), ' ',
        h('span', {class: `badge ${a.status === 'Successful' ? 'cool' : 'thr'}`, text: a.status.toUpperCase()}), ' ',
        a.description,
        h('span', {class: 'sub', text: a.status_message && a.status !== 'Successful' ? `${a.cause} — ${a.status_message}` : a.cause})))),
      acts.length > 8 ? h('p', {class: 'sub', text: `… and ${plural(acts.length - 8, 'earlier activity', 'earlier activities')}`}) : null);
  }

  /* A table with LSIs: the item collections (one per partition-key value:
   * its items and their LSI entries) against the 10 GB limit; past it,
   * writes fail with ItemCollectionSizeLimitExceededException. */
  function collectionsSection(table, cap) {
    const ic = cap.item_collections;
    if (!ic)
      return null;
    const attr = table.partition_key || 'partition key';
    const rows = (ic.largest || []).map((c) => h('tr', null,
      h('td', {class: 'key', text: `${attr}=${c.partition_key}`}),
      h('td', {class: 'num', text: bytes(c.bytes)}),
      h('td', null, h('div', {class: 'meter'}, meterRow('', c.bytes / ic.limit_bytes,
        `${pct(c.bytes / ic.limit_bytes)} of ${bytes(ic.limit_bytes)}`, c.bytes >= 0.8 * ic.limit_bytes)))));
    return h('div', {class: 'collections'},
      h('h3', null, 'Item collections (local secondary indexes)'),
      h('p', {class: 'sub', text: `LSIs share the table’s capacity; what they limit is size: the items of one ` +
        `partition-key value and their LSI entries, at most ${bytes(ic.limit_bytes)}. ` +
        `${plural(ic.collections, 'collection')}${ic.more ? ' read (more not read)' : ''}, the largest first.`}),
      rows.length ? h('table', {class: 'keys'},
        h('caption', {class: 'vh'}, 'Largest item collections by size'),
        h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'Partition key'), h('th', {scope: 'col', class: 'num'}, 'Size'),
          h('th', {scope: 'col'}, 'Of the limit'))),
        h('tbody', null, rows)) : h('p', {class: 'empty'}, 'No items yet.'));
  }

  /* A deleted table's resource: its charts and throttled keys from the
   * metrics its last incarnation left (no limits, no partitions). */
  function deletedResourceSection(table, entry, data) {
    const {res, data: d} = entry;
    const cols = chartLayout();
    const charts = DIRS.map((dir) => consumedChart({
      res, dir, points: d[`consumed:${dir.key}`] || [], start: data.start, end: data.end,
      limit: null, history: [], plimit: null, tableName: table.name, period: data.period, scaling: [],
    }));
    charts.push(throttleChart({res, data: d, start: data.start, end: data.end, tableName: table.name, period: data.period}));
    const id = `res-${res.kind}-${res.name}`.replace(/[^A-Za-z0-9_-]/g, '_');
    const keys = eventKeys(data.events && data.events.events, res);
    return h('section', {class: 'resource', 'aria-labelledby': id},
      h('div', {class: 'resource-head'},
        h('span', {class: 'kind', text: res.kind === 'index' ? 'Global secondary index (deleted)' : 'Table (deleted)'}),
        h('h2', {id}, res.kind === 'index' ? `${res.name} (on ${table.name})` : res.name)),
      h('div', {class: 'charts', style: {gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`}}, charts),
      keys.length ? h('div', {class: 'topkeys'}, groupedKeyTable(`Throttled keys in the recent events (${lastW()})`,
        'Throttled partition keys counted from recent throttle events, with their sort keys',
        keys, keyAttrs(table, res))) : null);
  }

  /* The table's stream: its shards and how far readers got. sluice knows
   * each shard's records and the furthest position any GetRecords reached:
   * a shard's lag is the age of its oldest record past that position
   * (records nobody has read yet), 0 when everything was read. */
  function streamSection(table, stream) {
    if (!table.stream || !stream)
      return null;
    const section = h('section', {class: 'panel-wide stream', 'aria-labelledby': 'stream-h'},
      h('h2', {id: 'stream-h'}, `Stream of ${table.name}`));
    if (stream.error || !stream.stream) {
      section.append(h('p', {class: 'empty'}, 'The stream is not available from this server.'));
      return section;
    }
    const st = stream.stream;
    const now = stream.now_ms;
    const shards = st.shards || [];
    const unread = shards.reduce((a, x) => a + x.unread_records, 0);
    const lag = Math.max(0, ...shards.map((x) => x.lag_ms));
    const never = shards.filter((x) => !x.read && x.unread_records > 0).length;
    const age = (ms) => (ms === null || ms === undefined ? '—' : `${ago(now - ms).replace('−', '')} ago`);
    section.append(h('p', {class: unread ? 'lagline warn' : 'lagline'},
      h('strong', {text: unread ? `${plural(unread, 'record')} not read yet` : 'Every record has been read'}),
      unread ? ` · lag ${ago(lag).replace('−', '')} (the oldest unread record’s age)` : '',
      never ? ` · ${plural(never, 'shard')} never read` : '',
      ` · ${st.view_type} · ${plural(shards.filter((x) => x.open).length, 'open shard')}, ${num(shards.filter((x) => !x.open).length, 0)} closed`));
    /* The stream's throughput and what it still keeps: records per second
     * over the page's time window of the clock (the stream's life when
     * younger), and the oldest record's age (records are kept 24 hours). */
    const rate = st.records_per_second || 0;
    const span = st.rate_window_ms || state.window.s * 1000;
    const spanText = span === state.window.s * 1000 ? lastW() : `the last ${ago(span).replace('−', '')}`;
    section.append(h('p', {class: 'streamstats', 'data-records-per-second': String(rate),
      'data-oldest-record-age-ms': st.oldest_record_age_ms === null || st.oldest_record_age_ms === undefined
        ? '' : String(st.oldest_record_age_ms)},
      h('strong', {class: 'rate', text: `${num(rate, rate < 10 ? 2 : 1)} records/s`}),
      ` over ${spanText}${st.rate_capped ? ' (estimated from the newest records)' : ''}` +
        ` (${plural(st.records_in_window || 0, 'record')})`,
      ' · ',
      h('strong', {class: 'oldest', text: st.oldest_record_age_ms === null || st.oldest_record_age_ms === undefined
        ? 'no record kept' : `oldest record ${ago(st.oldest_record_age_ms).replace('−', '')} old`}),
      ' (records are kept 24 hours)'));
    section.append(h('div', {class: 'scroll'}, h('table', {class: 'shards'},
      h('caption', null, 'Shards (one per partition; a split or a 4-hour rollover closes a shard and opens children). ' +
        '“Unread” counts records past the furthest GetRecords position of any reader; lag is the age of the oldest of them.'),
      h('thead', null, h('tr', null,
        h('th', {scope: 'col'}, 'Shard'), h('th', {scope: 'col'}, 'State'),
        h('th', {scope: 'col'}, 'Oldest record'), h('th', {scope: 'col'}, 'Newest record'),
        h('th', {scope: 'col', class: 'num'}, 'Unread'),
        h('th', {scope: 'col'}, 'Lag'), h('th', {scope: 'col'}, 'Last read'))),
      h('tbody', null, shards.map((x) => h('tr', {'data-unread': String(x.unread_records), class: x.unread_records ? 'unread' : null},
        h('td', {class: 'mono', text: x.shard_id}, x.parent_shard_id ? h('span', {class: 'sub', text: `child of …${x.parent_shard_id.slice(-8)}`}) : null),
        h('td', null, x.open ? 'open' : `closed ${age(x.closed_ms)}`),
        h('td', null, age(x.oldest_record_ms)),
        h('td', null, age(x.newest_record_ms)),
        h('td', {class: 'num', text: `${num(x.unread_records, 0)}${x.unread_capped ? '+' : ''}`}),
        h('td', null, x.unread_records ? ago(x.lag_ms).replace('−', '') : '0'),
        h('td', null, x.read ? `${age(x.last_read_ms)} (${plural(x.reads, 'GetRecords', 'GetRecords')})` : 'never')))))));
    return section;
  }

  /* Fault rules that can touch a table, as text. */
  function ruleText(r) {
    const what = r.reason || r.cancellation_reason || r.error || 'an error';
    const where = [r.operation || 'every operation', r.table ? `on ${r.table}` : 'on every table',
      r.index ? `index ${r.index}` : null, r.key_prefix ? `keys starting ${r.key_prefix}` : null].filter(Boolean).join(' ');
    const how = r.remaining !== undefined ? `the next ${plural(r.remaining, 'request')}` : `probability ${num(r.probability, 3)}`;
    return `rule ${r.id}: ${where} → ${what} (${how}; ${plural(r.hits, 'hit')} so far)`;
  }

  /* Active fault rules, marked so that an injected throttle is not taken
   * for a real one (their throttles are counted like real ones). */
  function faultsSection(table) {
    const rules = (state.faults || []).filter((r) => !r.table || r.table === table.name);
    if (!rules.length)
      return null;
    return h('section', {class: 'faults', 'aria-labelledby': 'faults-h'},
      h('h2', {id: 'faults-h'}, h('span', {class: 'badge injected', text: 'INJECTED'}),
        ` Fault injection is on for ${table.name}: ${plural(rules.length, 'rule')}`),
      h('p', null, 'Throttles and errors these rules inject are counted in the charts and counts below like real ones; ' +
        'remove the rules (DELETE /_sluice/faults) to see only real throttling.'),
      h('ul', null, rules.map((r) => h('li', {class: 'mono', text: ruleText(r)}))));
  }

  function renderDetail(table, cap, data) {
    const kids = [data.deleted ? h('p', {class: 'notice deleted-note'},
      h('span', {class: 'badge gone', text: 'DELETED'}),
      ` ${table.name} was deleted at ${clockText(table.deleted_ms)}. This is what its last incarnation recorded ` +
      '(metrics and throttle events); its settings, items and partitions went with it.' +
      (table.live_too ? ` A new ${table.name} exists and started at zero.` : '')) : null,
    faultsSection(table), diagnosisSection(table, cap, data)];
    for (const entry of data.resources)
      kids.push(resourceSection(table, cap, entry, data));
    kids.push(streamSection(table, data.stream));
    kids.push(eventsSection(table.name, data.events));
    replaceKeepingFocus($('detail'), kids);
  }

  /* ---- start ---- */

  /* The URL's fragment names the selected table (#Orders), so a view can be
   * bookmarked or shared. */
  function selectFromHash() {
    const fromHash = decodeURIComponent(location.hash.slice(1));
    if (fromHash && fromHash !== state.selected) {
      state.choices++;
      state.selected = fromHash;
      state.chosen = true;
      refreshNow();
    }
  }

  /* ---- the query workbench ---- */

  function defList(rows) {
    const dl = h('dl');
    for (const [k, v] of rows)
      append(dl, [h('dt', {text: k}), h('dd', {text: v})]);
    return dl;
  }

  async function post(path, body) {
    const r = await fetch(path, {method: 'POST', cache: 'no-store',
      headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
    let j = null;
    try {
      j = await r.json();
    } catch (_) {
      j = null;
    }
    return {ok: r.ok, json: j || {}};
  }

  function errorText(j) {
    const type = j.type || String(j.__type || '').split('#').pop() || 'Error';
    return `${type}: ${j.error || j.message || j.Message || 'the request failed'}`;
  }

  function wbRequest() {
    return {Statement: $('wb-stmt').value, ConsistentRead: $('wb-consistent').checked};
  }

  async function wbPreview() {
    const out = $('wb-preview-out');
    const r = await post('/_sluice/explain', wbRequest());
    if (!r.ok) {
      replaceKeepingFocus(out, h('h3', {text: 'Preview'}), h('p', {class: 'warn', text: errorText(r.json)}));
      return;
    }
    const e = r.json.Estimate || {};
    // An INSERT, UPDATE or DELETE previews as its single-item write.
    const write = e.WriteUnits !== undefined;
    const kids = [h('h3', {text: 'Preview'}),
      h('p', {}, h('code', {class: 'wb-plan', text: (r.json.Plan || {}).Text || ''})),
      write ? defList([
        ['Operation', (r.json.Plan || {}).Operation || ''],
        ['Item bytes', `${bytes(e.ItemBytesBefore || 0)} before, ${bytes(e.ItemBytesAfter || 0)} after`],
        ['Write units', `${num(e.WriteUnits, 1)} WCU`],
        ['Condition holds now', e.ConditionPasses ? 'yes' : 'no'],
        ['At the current limit', `${num(e.SecondsAtCurrentLimit, 3)} s (${num(e.WriteLimitPerSecond, 0)} WCU/s)`],
        ['Throttled now', e.WillThrottle ? 'yes' : 'no'],
      ]) : defList([
        ['Operation', (r.json.Plan || {}).Operation || ''],
        ['Items read', num(e.Items, 0)],
        ['Items returned', num(e.ReturnedItems, 0)],
        ['Bytes read', bytes(e.Bytes || 0)],
        ['Pages', num(e.Pages, 0)],
        ['Read units', `${num(e.ReadUnits, 1)} RCU`],
        ['At the current limit', `${num(e.SecondsAtCurrentLimit, 3)} s (${num(e.ReadLimitPerSecond, 0)} RCU/s)`],
        ['Throttled now', e.WillThrottle ? 'yes' : 'no'],
      ])];
    for (const w of r.json.Warnings || [])
      kids.push(h('p', {class: 'warn', text: w}));
    for (const a of r.json.Alternatives || [])
      kids.push(h('p', {text: `Instead: Query index ${a.IndexName} (${a.KeyCondition}): ` +
        `${num(a.ReadUnits, 1)} RCU, ${num(a.Items, 0)} items read`}));
    replaceKeepingFocus(out, ...kids);
  }

  async function wbRun() {
    const out = $('wb-run-out');
    const r = await post('/_sluice/execute', wbRequest());
    if (!r.ok) {
      replaceKeepingFocus(out, h('h3', {text: 'Result'}), h('p', {class: 'warn', text: errorText(r.json)}));
      return;
    }
    const items = r.json.Items || [];
    const cc = r.json.ConsumedCapacity || {};
    replaceKeepingFocus(out, h('h3', {text: 'Result'}),
      defList([
        ['Items', num(items.length, 0)],
        ['Consumed capacity', `${num(cc.CapacityUnits || 0, 1)} units`],
        ['More pages', r.json.NextToken ? 'yes (NextToken)' : 'no'],
      ]),
      h('pre', {text: items.slice(0, 20).map((it) => JSON.stringify(it)).join('\n')}));
  }

  function start() {
    $('wb-preview').addEventListener('click', () => wbPreview().catch((e) => setStatus(e.message, 'error')));
    $('wb-run').addEventListener('click', () => wbRun().catch((e) => setStatus(e.message, 'error')));
    selectFromHash();
    window.addEventListener('hashchange', selectFromHash);
    for (const b of document.querySelectorAll('#window-buttons button'))
      b.addEventListener('click', () => chooseWindow(b.dataset.window));
    for (const b of document.querySelectorAll('#clock-advance button'))
      b.addEventListener('click', () => advance(Number(b.dataset.ms), b));
    const pause = $('pause');
    pause.addEventListener('click', () => {
      state.paused = !state.paused;
      pause.setAttribute('aria-pressed', state.paused ? 'true' : 'false');
      pause.textContent = state.paused ? 'Resume updates' : 'Pause updates';
      setStatus(state.paused ? 'Paused' : 'Live', state.paused ? 'paused' : null);
      announce(state.paused ? 'Updates paused' : 'Updates resumed');
      if (!state.paused)
        refreshNow();
    });
    tick();
  }

  if (document.readyState === 'loading')
    document.addEventListener('DOMContentLoaded', start);
  else
    start();
})();
