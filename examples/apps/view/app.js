// The view's side of the MCP Apps protocol, by hand: JSON-RPC 2.0 over
// postMessage with the host (window.parent).
"use strict";

let nextId = 1;
const pending = new Map(); // request id → {resolve, reject}
let region = "";

function send(message) {
  window.parent.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*");
}

// request sends a request to the host and resolves with its result.
function request(method, params) {
  const id = nextId++;
  send({ id, method, params });
  return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}

function notify(method, params) {
  send({ method, params });
}

const handlers = {
  // The arguments the tool was called with.
  "ui/notifications/tool-input": (params) => {
    region = (params.arguments && params.arguments.region) || region;
    document.getElementById("title").textContent = "Sales: " + region;
  },
  // The tool's result: render its structured content.
  "ui/notifications/tool-result": (params) => render(params),
  "ui/notifications/tool-cancelled": () => status("The call was cancelled."),
  "ui/notifications/host-context-changed": (params) => applyContext(params),
};

// Requests the host may send: answered with a result.
const requests = {
  "ping": () => ({}),
  "ui/resource-teardown": () => ({}),
};

window.addEventListener("message", (event) => {
  if (event.source !== window.parent) return;
  const msg = event.data;
  if (!msg || msg.jsonrpc !== "2.0") return;
  if (msg.method === undefined) { // a response
    const p = pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(msg.error.message)); else p.resolve(msg.result);
    return;
  }
  if (msg.id !== undefined) {
    const fn = requests[msg.method];
    if (fn) send({ id: msg.id, result: fn(msg.params || {}) });
    else send({ id: msg.id, error: { code: -32601, message: "Method not found: " + msg.method } });
    return;
  }
  const fn = handlers[msg.method];
  if (fn) fn(msg.params || {});
});

function status(text) {
  document.getElementById("status").textContent = text;
  sizeChanged();
}

function applyContext(ctx) {
  const vars = ctx.styles && ctx.styles.variables;
  if (vars) for (const [k, v] of Object.entries(vars)) if (v) document.documentElement.style.setProperty(k, v);
  if (ctx.theme) document.documentElement.style.colorScheme = ctx.theme;
}

function render(result) {
  const report = result.structuredContent;
  if (result.isError || !report || !report.months) {
    const text = (result.content || []).filter((c) => c.type === "text").map((c) => c.text).join("\n");
    status(text || "The tool failed.");
    return;
  }
  region = report.region;
  document.getElementById("title").textContent = "Sales: " + report.region;
  const max = Math.max(...report.months.map((m) => m.units), 1);
  const chart = document.getElementById("chart");
  const body = document.querySelector("#table tbody");
  chart.replaceChildren();
  body.replaceChildren();
  for (const m of report.months) {
    const bar = document.createElement("div");
    bar.className = "bar";
    bar.style.height = Math.round((m.units / max) * 100) + "%";
    bar.title = m.month + ": " + m.units;
    const label = document.createElement("span");
    label.textContent = m.month;
    bar.append(label);
    chart.append(bar);
    const row = body.insertRow();
    row.insertCell().textContent = m.month;
    row.insertCell().textContent = m.units;
  }
  document.getElementById("total").textContent = report.total;
  document.getElementById("table").hidden = false;
  document.getElementById("forecast").disabled = false;
  status(report.months.length + " months, " + report.total + " units");
}

// The button calls forecast, a tool only views may call, through the host.
document.getElementById("forecast").addEventListener("click", async () => {
  const answer = document.getElementById("answer");
  answer.textContent = "…";
  try {
    const result = await request("tools/call", { name: "forecast", arguments: { region } });
    const f = result.structuredContent;
    answer.textContent = result.isError || !f
      ? (result.content || []).map((c) => c.text).join(" ")
      : "Forecast for " + f.month + ": " + f.units + " units";
  } catch (err) {
    answer.textContent = "Error: " + err.message;
  }
  sizeChanged();
});

// Tell the host how tall the view is, so that it can size the frame.
let lastHeight = 0;
function sizeChanged() {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === lastHeight) return;
  lastHeight = height;
  notify("ui/notifications/size-changed", { width: Math.ceil(document.documentElement.scrollWidth), height });
}
new ResizeObserver(sizeChanged).observe(document.documentElement);

// The handshake: ui/initialize, then ui/notifications/initialized. The
// host sends the tool's input and result only after it.
request("ui/initialize", {
  appInfo: { name: "sales-chart", version: "1.0.0" },
  appCapabilities: {},
  protocolVersion: "2026-01-26",
}).then((res) => {
  if (res.hostContext) applyContext(res.hostContext);
  notify("ui/notifications/initialized", {});
  status("Waiting for the report…");
}, (err) => status("The host refused the view: " + err.message));
