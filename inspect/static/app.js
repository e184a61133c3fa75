// The moonmind inspector page: the population view (#), one agent's view
// (#agent/WORLD/NAME) with live updates over a WebSocket, control and time
// travel. It reads only the JSON API under api/.
"use strict";

const $ = (id) => document.getElementById(id);
const pageSize = 100;
let worlds = [];
let pop = { offset: 0, sort: "", desc: false, total: 0, asked: 0 };
let current = null;   // {world, name}
let live = null;      // the latest live view of the current agent
let history = null;   // the latest time-travel history
let socket = null;
let pollTimer = null;
let worldsHTML = "";

function esc(s) {
  return String(s ?? "").replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}
function num(x, d = 3) { return x === null || x === undefined ? "missing" : Number(x).toFixed(d).replace(/\.?0+$/, "") || "0"; }

async function api(path, opts) {
  const r = await fetch("api/" + path, opts);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) throw new Error(body.error || r.statusText);
  return { body, headers: r.headers };
}
async function control(world, path, payload) {
  try {
    const { body } = await api("worlds/" + encodeURIComponent(world) + "/" + path, {
      method: path.startsWith("breakpoints/") ? "DELETE" : "POST",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(payload || {}),
    });
    await refreshWorlds();
    return body;
  } catch (e) { alert(e.message); return null; }
}

// The worlds bar, with pause, step and resume when control is on.
async function refreshWorlds() {
  try { worlds = (await api("worlds")).body; } catch (e) { return; }
  const html = worlds.map((w) => {
    let h = `<span class="world" data-world="${esc(w.name)}"><b>${esc(w.name)}</b> tick <span class="tick">${w.tick}</span> · ${w.agents} agents`;
    if (w.offline) h += " · trace";
    if (w.paused) h += ` · <span class="paused" title="${esc(w.why)}">paused</span>`;
    if (w.control) {
      h += w.paused
        ? ` <button class="step">step</button> <button class="resume">resume</button>`
        : ` <button class="pause">pause</button>`;
      if (w.reload) h += ` <button class="reload">reload</button>`;
    }
    if (w.droppedRequests || w.droppedPushes) h += ` <span class="muted">dropped ${w.droppedRequests}/${w.droppedPushes}</span>`;
    return h + "</span>";
  }).join("");
  const w = current && worlds.find((x) => x.name === current.world);
  if (w) renderBreakpoints(w);
  if (html === worldsHTML) return; // the buttons stay put between clicks
  worldsHTML = html;
  $("worlds").innerHTML = html;
  for (const el of document.querySelectorAll(".world")) {
    const name = el.dataset.world;
    for (const op of ["pause", "step", "resume"]) {
      const b = el.querySelector("." + op);
      if (b) b.onclick = () => control(name, op);
    }
    const rb = el.querySelector(".reload");
    if (rb) rb.onclick = async () => { const r = await control(name, "reload"); if (r) alert(r.message); };
  }
}

// The population view: filtered, sorted and paged on the server.
async function refreshPopulation() {
  const q = new URLSearchParams();
  for (const k of ["q", "role", "goal", "action", "decision"]) { const v = $("f-" + k).value; if (v) q.set(k, v); }
  if ($("f-failed").checked) q.set("failed", "1");
  if ($("f-stuck").checked) q.set("stuck", "1");
  if (pop.sort) q.set("sort", pop.sort);
  if (pop.desc) q.set("desc", "1");
  q.set("offset", pop.offset); q.set("limit", pageSize);
  const asked = ++pop.asked;
  let res;
  try { res = await api("agents?" + q); } catch (e) { $("count").textContent = e.message; return; }
  if (asked !== pop.asked) return; // a later request (another keystroke) answers instead
  pop.total = Number(res.headers.get("X-Total-Count") || 0);
  const end = Math.min(pop.offset + pageSize, pop.total);
  $("count").textContent = pop.total ? `${pop.offset + 1}–${end} of ${pop.total}` : "no agents";
  $("agents").tBodies[0].innerHTML = res.body.map((a) =>
    `<tr data-world="${esc(a.world)}" data-name="${esc(a.name)}"><td>${esc(a.name)}</td><td>${esc(a.world)}</td><td>${esc(a.role)}</td>` +
    `<td>${esc(a.goal)}</td><td>${esc(a.action)}</td><td>${esc(a.decision)}</td><td>${a.failures}</td><td>${a.replans}</td>` +
    `<td>${a.ticks}</td><td>${a.stuck ? '<span class="bad">STUCK</span>' : ""}</td></tr>`).join("");
}

function renderBreakpoints(w) {
  $("a-control").hidden = !w.control;
  const html = (w.breakpoints || []).map((b) =>
    `<li>breakpoint ${b.id}: ${esc(b.condition || (b.kind || "any") + " record")}${b.agent ? " of " + esc(b.agent) : ""} · hits ${b.hits} <button data-id="${b.id}">remove</button></li>`).join("") +
    (w.paused && w.why ? `<li class="paused">${esc(w.why)}</li>` : "");
  if ($("bp-list").dataset.html === html) return;
  $("bp-list").dataset.html = html;
  $("bp-list").innerHTML = html;
  for (const b of $("bp-list").querySelectorAll("button")) b.onclick = () => control(w.name, "breakpoints/" + b.dataset.id);
}

// One agent's view.
function renderAgent(v, frame) {
  const w = worlds.find((x) => x.name === current.world) || {};
  $("a-title").textContent = `${v.name} (role ${v.role || "?"}, decides by ${v.decide || "?"})`;
  const doing = v.action ? `runs <b>${esc(v.action)}</b>` : "idle";
  $("a-summary").innerHTML = `${doing} · decision ${esc(v.decision || "none")}` + (v.goal ? ` for goal <b>${esc(v.goal)}</b> (${esc(v.goalPriority)})` : "") +
    ` · tick ${v.ticks} · t=${num(v.time, 2)} s · failures ${v.failures}` + (v.stuck ? ' · <span class="bad">STUCK</span>' : "");
  const editable = w.control && w.paused && !frame;
  $("a-state").innerHTML = "<tr><th>variable</th><th>value</th></tr>" + (v.state || []).map((s) =>
    `<tr class="${s.changed ? "changed" : ""}"><td>${esc(s.name)}</td><td>` +
    (editable ? `<input data-var="${esc(s.name)}" value="${esc(s.value)}" size="10">` : esc(s.value)) + "</td></tr>").join("");
  for (const inp of $("a-state").querySelectorAll("input")) {
    inp.onchange = async () => {
      const r = await control(current.world, "agents/" + encodeURIComponent(current.name) + "/state", { name: inp.dataset.var, value: inp.value });
      if (r) { live = r; renderAgent(r); }
    };
  }
  $("a-goals").innerHTML = "<tr><th>goal</th><th>priority</th><th>condition</th><th></th></tr>" + (v.goals || []).map((g) =>
    `<tr class="${g.current ? "current" : ""}"><td>${esc(g.name)}</td><td>${esc(g.priority)}</td><td>${esc(g.condition)}</td>` +
    `<td>${g.satisfied ? '<span class="ok">holds</span>' : '<span class="bad">unmet</span>'}</td></tr>`).join("");
  $("a-plan").innerHTML = "<tr><th>step</th><th>cost</th><th>precondition</th><th>effects</th></tr>" + (v.plan || []).map((s) =>
    `<tr class="${s.running ? "running" : ""}"><td>${esc(s.action)}</td><td>${s.cost ?? ""}</td><td>${esc(s.pre)}</td><td>${esc(s.effects)}</td></tr>`).join("") +
    (v.plan && v.plan.length ? `<tr><td>total</td><td class="plan-cost">${v.planCost}</td><td></td><td></td></tr>` : "<tr><td colspan=4 class=muted>no plan</td></tr>");
  $("a-intentions").innerHTML = (v.intentions || []).length
    ? "<tr><th>#</th><th>plan</th><th>for</th><th>waits for</th></tr>" + v.intentions.map((i) =>
      `<tr><td>${i.id}</td><td>${esc(i.plan)}</td><td>${esc(i.event)}</td><td>${esc(i.waiting)}</td></tr>`).join("")
    : "<tr><td class=muted>none</td></tr>";
  renderUtility(v.utility);
  const sel = $("wn-action");
  if (sel.dataset.agent !== v.name) {
    sel.dataset.agent = v.name;
    sel.innerHTML = (v.actions || []).map((a) => `<option>${esc(a)}</option>`).join("");
    $("wn-lines").innerHTML = "";
  }
  renderRecords(v.records || [], frame);
}

function renderUtility(u) {
  if (!u) { $("a-utility").innerHTML = '<p class="muted">the role decides by goals alone</p>'; return; }
  let h = `<p>pick <b>${esc(u.pick || "none")}</b>${u.kept ? " (kept: the running action leads within the commitment)" : ""} · mode ${esc(u.mode)} · commitment ${num(u.commitment)}</p>`;
  h += '<table id="scores"><tr><th>action</th><th>score</th><th>input</th><th>output</th><th>weight</th><th>curve</th></tr>';
  for (const a of u.actions || []) {
    h += `<tr class="${a.action === u.pick ? "current" : ""}"><td>${esc(a.action)}</td><td class="score">${num(a.score)}</td><td></td><td></td><td></td><td></td></tr>`;
    for (const c of a.considerations || []) {
      h += `<tr class="cons"><td>${esc(c.name)}</td><td></td><td>${num(c.input)}</td><td>${num(c.output)}</td><td>${num(c.weight)}</td><td>${curveSVG(c.curve)}${c.error ? ' <span class="bad">' + esc(c.error) + "</span>" : ""}</td></tr>`;
    }
  }
  h += "</table>";
  if ((u.blocked || []).length) h += '<p class="muted">not applicable: ' + u.blocked.map((b) => `${esc(b.action)} (${esc(b.pre)})`).join(", ") + "</p>";
  $("a-utility").innerHTML = h;
}

// A small plot of a response curve with the current input marked.
function curveSVG(c) {
  if (!c) return "";
  const W = 80, H = 32;
  const pts = c.y.map((y, k) => `${(k / (c.y.length - 1)) * W},${H - y * H}`).join(" ");
  let mark = "";
  if (c.x !== null && c.x !== undefined) {
    const k = Math.round(c.x * (c.y.length - 1));
    mark = `<line x1="${c.x * W}" y1="0" x2="${c.x * W}" y2="${H}" stroke="#d33" stroke-width="1"/><circle cx="${c.x * W}" cy="${H - c.y[k] * H}" r="2.5" fill="#d33"/>`;
  }
  return `<svg class="curve" width="${W}" height="${H}" viewBox="-1 -1 ${W + 2} ${H + 2}"><title>${esc(c.kind)}</title><polyline fill="none" stroke="#2b5fd9" stroke-width="1.5" points="${pts}"/>${mark}</svg>`;
}

function renderRecords(recs, frame) {
  const upto = frame ? frame.tick : Infinity;
  const shown = recs.filter((r) => r.tick <= upto).slice(-40);
  $("a-records").innerHTML = "<tr><th>#</th><th>tick</th><th>t</th><th>kind</th><th>what</th></tr>" + shown.map((r) =>
    `<tr class="${frame && r.tick === frame.tick ? "current" : ""}"><td>${r.seq}</td><td>${r.tick}</td><td>${num(r.time, 2)}</td><td class="kind-${esc(r.kind)}">${esc(r.kind)}</td>` +
    `<td>${esc([r.goal, r.action, (r.plan || []).join(", "), r.reason, r.belief && r.belief + "=" + r.value].filter(Boolean).join(" · "))}` +
    (r.cost ? ` [cost ${r.cost}]` : "") + (r.score ? ` score ${num(r.score)}` : "") + "</td></tr>").join("");
}

// Time travel: the slider runs over the frames the inspector kept; the end
// is live.
async function refreshHistory() {
  if (!current) return;
  try {
    history = (await api(`worlds/${encodeURIComponent(current.world)}/agents/${encodeURIComponent(current.name)}/history`)).body;
  } catch (e) { return; }
  const s = $("t-slider");
  const atEnd = Number(s.value) >= Number(s.max);
  s.max = Math.max(0, history.frames.length - 1);
  if (atEnd) s.value = s.max;
}
function showFrame() {
  if (!history || !live) return;
  const s = $("t-slider");
  const k = Number(s.value);
  if (k >= history.frames.length - 1) { $("t-label").textContent = "live"; $("agent").classList.remove("past"); renderAgent(live); return; }
  const f = history.frames[k];
  $("t-label").textContent = `tick ${f.tick} (t=${num(f.time, 2)} s)`;
  $("agent").classList.add("past");
  const prev = k > 0 ? history.frames[k - 1] : null;
  const v = Object.assign({}, live, {
    ticks: f.tick, time: f.time, goal: f.goal, action: f.action, decision: f.decision,
    state: history.names.map((n, i) => ({ name: n, value: f.state[i] ?? "", changed: prev && prev.state[i] !== f.state[i] })),
    plan: (f.plan || []).map((a, i) => ({ action: a, running: i === 0 && a === f.action })),
    goals: (live.goals || []).map((g) => Object.assign({}, g, { current: g.name === f.goal })),
    records: history.records, utility: live.utility,
  });
  renderAgent(v, f);
}

function openAgent(world, name) {
  current = { world, name };
  live = null; history = null;
  $("population").hidden = true; $("agent").hidden = false;
  $("t-slider").value = 0; $("t-slider").max = 0;
  closeSocket();
  const w = worlds.find((x) => x.name === world);
  const load = async () => {
    try {
      live = (await api(`worlds/${encodeURIComponent(world)}/agents/${encodeURIComponent(name)}`)).body;
      await refreshHistory();
      showFrame();
    } catch (e) { $("a-summary").textContent = e.message; }
  };
  load();
  if (w && !w.offline) connect(world, name);
}

// connect opens the live updates of the agent; when the world goes away
// (a game that starts a new round attaches a new world under the name),
// it connects again.
function connect(world, name) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const base = location.pathname.replace(/[^/]*$/, "");
  socket = new WebSocket(`${proto}//${location.host}${base}api/ws?world=${encodeURIComponent(world)}&agent=${encodeURIComponent(name)}`);
  socket.onmessage = (m) => {
    const u = JSON.parse(m.data);
    if (!u.agent) return;
    live = u.agent;
    const i = worlds.findIndex((x) => x.name === u.world.name);
    if (i >= 0) worlds[i] = u.world;
    const s = $("t-slider");
    if (Number(s.value) >= Number(s.max)) renderAgent(live);
  };
  socket.onclose = () => {
    socket = null;
    setTimeout(() => { if (current && current.world === world && current.name === name && !socket) connect(world, name); }, 1000);
  };
  socket.onerror = () => { if (!pollTimer) pollTimer = setInterval(() => refreshAgent(world, name), 500); };
}

async function refreshAgent(world, name) {
  try {
    live = (await api(`worlds/${encodeURIComponent(world)}/agents/${encodeURIComponent(name)}`)).body;
    showFrame();
  } catch (e) { /* shown at the next success */ }
}
function closeSocket() {
  if (socket) { socket.onclose = socket.onerror = null; socket.close(); socket = null; }
  if (pollTimer) { clearInterval(pollTimer); pollTimer = null; }
}

function route() {
  const m = location.hash.match(/^#agent\/([^/]*)\/(.*)$/);
  if (m) { openAgent(decodeURIComponent(m[1]), decodeURIComponent(m[2])); return; }
  current = null; closeSocket();
  $("population").hidden = false; $("agent").hidden = true;
  refreshPopulation();
}

async function init() {
  await refreshWorlds();
  try {
    const kinds = (await api("kinds")).body;
    $("bp-kind").innerHTML += kinds.map((k) => `<option>${esc(k)}</option>`).join("");
  } catch (e) { /* the list is a convenience */ }
  $("agents").tBodies[0].onclick = (e) => {
    const tr = e.target.closest("tr");
    if (tr) location.hash = `#agent/${encodeURIComponent(tr.dataset.world)}/${encodeURIComponent(tr.dataset.name)}`;
  };
  for (const th of document.querySelectorAll("th[data-sort]")) {
    th.onclick = () => { pop.desc = pop.sort === th.dataset.sort ? !pop.desc : false; pop.sort = th.dataset.sort; refreshPopulation(); };
  }
  for (const el of $("filters").querySelectorAll("input, select")) el.oninput = () => { pop.offset = 0; refreshPopulation(); };
  $("prev").onclick = () => { pop.offset = Math.max(0, pop.offset - pageSize); refreshPopulation(); };
  $("next").onclick = () => { if (pop.offset + pageSize < pop.total) { pop.offset += pageSize; refreshPopulation(); } };
  $("bp-add").onclick = async () => {
    const body = { agent: current.name };
    const cond = $("bp-cond").value.trim();
    if (cond) body.condition = cond; else body.kind = $("bp-kind").value;
    if (await control(current.world, "breakpoints", body)) $("bp-cond").value = "";
  };
  $("wn-ask").onclick = async () => {
    try {
      const r = (await api(`worlds/${encodeURIComponent(current.world)}/agents/${encodeURIComponent(current.name)}/whynot?action=${encodeURIComponent($("wn-action").value)}`)).body;
      $("wn-lines").innerHTML = r.lines.map((l) => `<li>${esc(l)}</li>`).join("");
    } catch (e) { $("wn-lines").innerHTML = `<li class="bad">${esc(e.message)}</li>`; }
  };
  $("t-slider").oninput = showFrame;
  $("t-live").onclick = () => { $("t-slider").value = $("t-slider").max; showFrame(); };
  window.onhashchange = route;
  route();
  setInterval(() => {
    refreshWorlds();
    if (!current) refreshPopulation(); else refreshHistory();
  }, 1000);
}
init();
