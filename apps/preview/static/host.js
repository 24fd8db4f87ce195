// The host side of the fastmcp MCP Apps preview. It lists the server's
// tools, calls one from a form, and renders its view through the sandbox
// proxy (another origin), speaking the MCP Apps protocol over postMessage.
// Every request to the server goes through the Go handler's JSON
// endpoints, with the run's token.
(function () {
  "use strict";

  var PROTOCOL_VERSIONS = ["2026-01-26"];
  var token = document.querySelector('meta[name="fastmcp-token"]').content;
  var sandboxBase = document.querySelector('meta[name="fastmcp-sandbox"]').content;
  var sandboxOrigin = "";
  try { sandboxOrigin = new URL(sandboxBase).origin; } catch (e) { sandboxOrigin = ""; }
  var $ = function (id) { return document.getElementById(id); };

  var state = {
    tools: [],
    selected: null,
    theme: window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light",
    displayMode: "inline",
    view: null, // the current view session, see newView
    closing: [] // views being torn down, still answering
  };

  // ---- small helpers ----

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { e.textContent = attrs[k]; }
      else if (k === "className") { e.className = attrs[k]; }
      else { e.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) { e.appendChild(c); } });
    return e;
  }

  function api(path, body) {
    return fetch("/api/" + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Fastmcp-Preview-Token": token },
      body: JSON.stringify(body || {})
    }).then(function (resp) {
      return resp.json().then(function (data) {
        if (!resp.ok && !(data && data.error)) {
          data = { error: { message: "preview: HTTP " + resp.status } };
        }
        return data;
      });
    }, function (err) {
      return { error: { code: -32603, message: "preview: the preview server could not be reached: " + err } };
    });
  }

  function short(v) {
    var s = typeof v === "string" ? v : JSON.stringify(v);
    return s && s.length > 300 ? s.slice(0, 300) + "…" : s;
  }

  function log(dir, text) {
    var li = el("li", {}, [el("span", { className: "dir", text: dir + " " }), document.createTextNode(text)]);
    $("log").appendChild(li);
    while ($("log").children.length > 300) { $("log").firstChild.remove(); }
  }

  function contentText(blocks) {
    return (blocks || []).map(function (b) {
      if (b.type === "text") { return b.text; }
      if (b.type === "resource_link") { return "[link] " + b.uri; }
      if (b.type === "resource") { return "[resource] " + (b.resource && b.resource.uri); }
      return "[" + b.type + "]";
    }).join("\n");
  }

  // ---- host context ----

  var styleVariables = {
    light: {
      "--color-background-primary": "#ffffff", "--color-background-secondary": "#f5f6f8",
      "--color-text-primary": "#1d2330", "--color-text-secondary": "#667085",
      "--color-border-primary": "#d9dde5", "--color-ring-primary": "#3b5bdb"
    },
    dark: {
      "--color-background-primary": "#16181d", "--color-background-secondary": "#1f232b",
      "--color-text-primary": "#e6e8ee", "--color-text-secondary": "#98a2b3",
      "--color-border-primary": "#343a46", "--color-ring-primary": "#748ffc"
    }
  };
  var fontVariables = {
    "--font-sans": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "--font-mono": "ui-monospace, Menlo, monospace",
    "--border-radius-md": "6px"
  };

  function styles() {
    return { variables: Object.assign({}, fontVariables, styleVariables[state.theme]) };
  }

  function containerDimensions() {
    var c = $("view-container");
    return { width: Math.round(c.clientWidth || 600), maxHeight: Math.max(320, window.innerHeight - 100) };
  }

  function hostContext(view) {
    var ctx = {
      theme: state.theme,
      styles: styles(),
      displayMode: state.displayMode,
      availableDisplayModes: ["inline", "fullscreen"],
      containerDimensions: containerDimensions(),
      locale: navigator.language || "en-US",
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      userAgent: "fastmcp-preview",
      platform: "web",
      deviceCapabilities: { touch: "ontouchstart" in window, hover: true }
    };
    if (view && view.tool) {
      ctx.toolInfo = { tool: view.tool.tool };
    }
    return ctx;
  }

  function applyTheme() {
    document.documentElement.setAttribute("data-theme", state.theme);
    $("theme-toggle").textContent = state.theme === "dark" ? "Light theme" : "Dark theme";
  }

  // ---- tool list and form ----

  function loadTools() {
    return api("tools").then(function (data) {
      if (data.error) {
        $("tools-error").hidden = false;
        $("tools-error").textContent = data.error.message;
        return;
      }
      state.tools = data.tools;
      $("tools").textContent = "";
      $("other-tools").textContent = "";
      data.tools.forEach(function (t) {
        var b = el("button", { type: "button", className: "tool-button", "data-tool": t.name }, [
          el("span", { className: "name", text: t.title || t.name })
        ]);
        if (t.appOnly) { b.appendChild(el("span", { className: "badge app-only", text: "app-only", title: "Visible to the view only: the model cannot call it" })); }
        b.addEventListener("click", function () { select(t.name); });
        (t.resourceUri ? $("tools") : $("other-tools")).appendChild(el("li", {}, [b]));
      });
      if (!$("tools").children.length) {
        $("tools").appendChild(el("li", { className: "muted", text: "(none: no tool has _meta.ui.resourceUri)" }));
      }
    });
  }

  function select(name) {
    var t = state.tools.find(function (x) { return x.name === name; });
    if (!t) { return; }
    state.selected = t;
    document.querySelectorAll(".tool-button").forEach(function (b) {
      b.classList.toggle("selected", b.getAttribute("data-tool") === name);
    });
    $("placeholder").hidden = true;
    $("call-form").hidden = false;
    $("tool-title").textContent = t.title ? t.title + " (" + t.name + ")" : t.name;
    $("tool-description").textContent = t.description || "";
    $("tool-view").textContent = t.resourceUri ? "View: " + t.resourceUri + (t.appOnly ? " · app-only: only the view may call this tool" : "") : "No view.";
    $("call-button").disabled = !!t.appOnly;
    $("call-status").textContent = t.appOnly ? "App-only tools are called by their view, not from here." : "";
    var fields = $("fields");
    fields.textContent = "";
    if (t.formError) {
      fields.appendChild(el("p", { className: "error", text: t.formError }));
    }
    t.fields.forEach(function (f) { fields.appendChild(fieldInput(f)); });
  }

  function fieldInput(f) {
    var id = "field-" + f.name;
    var input;
    switch (f.kind) {
      case "boolean":
        input = el("select", {}, [el("option", { value: "", text: f.required ? "(choose)" : "(unset)" }), el("option", { value: "true", text: "true" }), el("option", { value: "false", text: "false" })]);
        input.value = f.default || "";
        break;
      case "enum":
        input = el("select", {}, [el("option", { value: "", text: f.required ? "(choose)" : "(unset)" })]);
        f.options.forEach(function (o) {
          var label = o;
          try { var v = JSON.parse(o); if (typeof v === "string") { label = v; } } catch (e) { /* keep the JSON text */ }
          input.appendChild(el("option", { value: o, text: label }));
        });
        input.value = f.default || "";
        break;
      case "json":
        input = el("textarea", { placeholder: "JSON" });
        input.value = f.default || "";
        break;
      default:
        input = el("input", { type: f.kind === "string" ? (f.format === "email" ? "email" : "text") : "text", inputmode: f.kind === "string" ? "text" : "decimal" });
        input.value = f.default || "";
    }
    input.id = id;
    input.name = f.name;
    input.setAttribute("data-kind", f.kind);
    var label = el("label", { "for": id }, [
      document.createTextNode(f.title || f.name),
      el("span", { className: "badge", text: f.kind + (f.format ? " · " + f.format : "") }),
      f.required ? el("span", { className: "badge", text: "required" }) : null
    ]);
    return el("div", { className: "field" }, [label, input, f.description ? el("div", { className: "hint", text: f.description }) : null]);
  }

  function formValues() {
    var values = {};
    $("fields").querySelectorAll("input, select, textarea").forEach(function (i) {
      if (i.value !== "") { values[i.name] = i.value; }
    });
    return values;
  }

  function showResult(result) {
    $("result-pane").hidden = false;
    $("result-text").textContent = contentText(result.content) || "(no content)";
    $("result-text").classList.toggle("error", !!result.isError);
    var hasStructured = result.structuredContent !== undefined;
    $("structured-details").hidden = !hasStructured;
    $("structured-details").open = hasStructured;
    $("result-structured").textContent = hasStructured ? JSON.stringify(result.structuredContent, null, 2) : "";
    $("result-raw").textContent = JSON.stringify(result, null, 2);
  }

  function callFailed(message) {
    $("call-button").disabled = false;
    $("call-status").textContent = "";
    $("call-status").appendChild(el("span", { className: "error", text: message }));
  }

  // callSelected checks the form (the Go handler turns its texts into the
  // tool's arguments), then loads the view and calls the tool at once:
  // the view gets the arguments as soon as it is initialized, and the
  // result when the call returns.
  function callSelected(ev) {
    ev.preventDefault();
    var t = state.selected;
    if (!t || t.appOnly) { return; }
    var values = formValues();
    $("call-button").disabled = true;
    $("call-status").textContent = "calling…";
    $("result-pane").hidden = true;
    api("arguments", { name: t.name, values: values }).then(function (checked) {
      if (checked.error) {
        callFailed(checked.error.message);
        return;
      }
      var viewReady = teardown("replaced").then(function () { return t.resourceUri ? openView(t) : null; });
      viewReady.then(function (view) { if (view) { view.setInput(checked.arguments); } });
      log("→ server", "tools/call " + t.name + " " + short(checked.arguments));
      api("call", { name: t.name, values: values }).then(function (data) {
        if (data.error) {
          callFailed(data.error.message);
          log("← server", "error " + data.error.message);
          viewReady.then(function (view) { if (view) { view.cancel(data.error.message); } });
          return;
        }
        $("call-button").disabled = false;
        $("call-status").textContent = data.result.isError ? "the tool reported an error" : "done";
        log("← server", "result of " + t.name + ": " + short(contentText(data.result.content)));
        showResult(data.result);
        viewReady.then(function (view) { if (view) { view.setResult(data.result); } });
      });
    });
  }

  // ---- the view session ----

  function newView(tool, resource) {
    var frame = el("iframe", {
      id: "view-frame",
      title: "View of " + tool.name,
      // The proxy needs scripts and its own (sandbox) origin to host the
      // view; popups open links the user confirmed in the panel.
      sandbox: "allow-scripts allow-same-origin allow-forms",
      src: resource.sandboxUrl + "/?host=" + encodeURIComponent(location.origin) +
        (resource.csp ? "&csp=" + encodeURIComponent(JSON.stringify(resource.csp)) : "")
    });
    var allow = [];
    var perms = resource.permissions || {};
    [["camera", "camera"], ["microphone", "microphone"], ["geolocation", "geolocation"], ["clipboardWrite", "clipboard-write"]].forEach(function (p) {
      if (perms[p[0]]) { allow.push(p[1] + " " + sandboxOrigin); }
    });
    if (allow.length) { frame.setAttribute("allow", allow.join("; ")); }

    var view = {
      tool: tool,
      resource: resource,
      frame: frame,
      initialized: false,
      closed: false,
      input: undefined,
      result: undefined,
      cancelled: undefined,
      nextId: 1,
      pending: {},
      sent: { input: false, result: false }
    };

    view.post = function (msg) {
      if (view.closed || !frame.contentWindow) { return; }
      frame.contentWindow.postMessage(msg, sandboxOrigin);
    };
    view.notify = function (method, params) {
      log("→ view", method + " " + short(params));
      view.post({ jsonrpc: "2.0", method: method, params: params });
    };
    view.request = function (method, params) {
      var id = view.nextId++;
      log("→ view", method + " #" + id);
      return new Promise(function (resolve) {
        view.pending[id] = resolve;
        view.post({ jsonrpc: "2.0", id: id, method: method, params: params });
      });
    };
    view.flush = function () {
      // Nothing goes to the view before it says it is initialized.
      if (!view.initialized) { return; }
      if (view.input !== undefined && !view.sent.input) {
        view.sent.input = true;
        view.notify("ui/notifications/tool-input", { arguments: view.input });
      }
      if (view.result !== undefined && view.sent.input && !view.sent.result) {
        view.sent.result = true;
        view.notify("ui/notifications/tool-result", view.result);
      }
      if (view.cancelled !== undefined && view.sent.input && !view.sent.result) {
        view.sent.result = true;
        view.notify("ui/notifications/tool-cancelled", { reason: view.cancelled });
      }
    };
    view.setInput = function (args) { view.input = args; view.flush(); };
    view.setResult = function (res) { view.result = res; view.flush(); };
    view.cancel = function (reason) { view.cancelled = reason; view.flush(); };
    return view;
  }

  function setViewStatus(text, ready) {
    $("view-status").textContent = text;
    $("view-status").classList.toggle("ready", !!ready);
  }

  function openView(tool) {
    $("view-pane").hidden = false;
    $("view-uri").textContent = tool.resourceUri;
    setViewStatus("loading");
    return api("view", { uri: tool.resourceUri }).then(function (res) {
      if (!res.error && !sandboxOrigin) {
        res = { error: { message: "preview: no sandbox origin is configured (Options.SandboxURL), so views cannot be rendered" } };
      }
      if (res.error) {
        setViewStatus("failed");
        log("← server", "view " + tool.resourceUri + ": " + res.error.message);
        $("view-container").textContent = "";
        $("view-container").appendChild(el("p", { className: "error", text: res.error.message }));
        return null;
      }
      var view = newView(tool, res);
      state.view = view;
      $("view-container").textContent = "";
      $("view-container").classList.toggle("border", res.prefersBorder !== false);
      $("view-container").appendChild(view.frame);
      return view;
    });
  }

  // teardown asks the current view to clean up (ui/resource-teardown),
  // waits for its answer, a bounded while at most, then removes it.
  function teardown(why) {
    var view = state.view;
    if (!view) { return Promise.resolve(); }
    state.view = null;
    state.closing.push(view);
    var done = function () {
      state.closing = state.closing.filter(function (v) { return v !== view; });
      view.closed = true;
      view.frame.remove();
      setViewStatus("closed");
      log("··", "view torn down (" + why + ")");
    };
    if (!view.initialized) { done(); return Promise.resolve(); }
    setViewStatus("tearing down");
    return Promise.race([
      view.request("ui/resource-teardown", {}),
      new Promise(function (resolve) { setTimeout(resolve, 3000); })
    ]).then(done);
  }

  function reply(view, id, result, error) {
    var msg = { jsonrpc: "2.0", id: id };
    if (error) { msg.error = { code: error.code || -32603, message: error.message || String(error) }; if (error.data !== undefined) { msg.error.data = error.data; } }
    else { msg.result = result; }
    log("→ view", (error ? "error " + msg.error.message : "result") + " #" + id);
    view.post(msg);
  }

  function proxied(view, id, path, params) {
    api(path, params || {}).then(function (data) {
      if (data.error) { reply(view, id, null, data.error); } else { reply(view, id, data.result); }
    });
  }

  function onViewRequest(view, msg) {
    var p = msg.params || {};
    switch (msg.method) {
      case "ui/initialize": {
        var version = PROTOCOL_VERSIONS.indexOf(p.protocolVersion) >= 0 ? p.protocolVersion : PROTOCOL_VERSIONS[0];
        view.appInfo = p.appInfo;
        reply(view, msg.id, {
          protocolVersion: version,
          hostInfo: { name: "fastmcp-preview", version: "1.0.0" },
          hostCapabilities: {
            openLinks: {},
            serverTools: {},
            serverResources: {},
            logging: {},
            message: { text: {} },
            updateModelContext: { text: {}, structuredContent: {} },
            sandbox: { csp: view.resource.csp || {}, permissions: view.resource.permissions || {} }
          },
          hostContext: hostContext(view)
        });
        return;
      }
      case "ping":
        reply(view, msg.id, {});
        return;
      case "tools/call":
        proxied(view, msg.id, "view/tools/call", p);
        return;
      case "tools/list":
        proxied(view, msg.id, "view/tools/list", {});
        return;
      case "resources/read":
        proxied(view, msg.id, "view/resources/read", p);
        return;
      case "ui/message":
        $("messages").appendChild(el("li", { text: (p.role || "user") + ": " + contentText(p.content) }));
        reply(view, msg.id, {});
        return;
      case "ui/update-model-context": {
        var parts = [];
        if (p.content && p.content.length) { parts.push(contentText(p.content)); }
        if (p.structuredContent !== undefined) { parts.push(JSON.stringify(p.structuredContent, null, 2)); }
        $("model-context").textContent = parts.join("\n") || "(empty)";
        $("model-context").classList.remove("muted");
        reply(view, msg.id, {});
        return;
      }
      case "ui/open-link":
        showLink(String(p.url || ""));
        reply(view, msg.id, {});
        return;
      case "ui/request-display-mode": {
        var mode = p.mode === "fullscreen" ? "fullscreen" : "inline";
        setDisplayMode(mode);
        reply(view, msg.id, { mode: mode });
        return;
      }
      default:
        reply(view, msg.id, null, { code: -32601, message: "Method not found: " + msg.method });
    }
  }

  // showLink lists a link the view asked to open; it opens (in a new tab,
  // without access to this page) only when the user clicks it.
  function showLink(url) {
    var li = el("li", { className: "link-entry" });
    var ok = false;
    try { var u = new URL(url); ok = u.protocol === "https:" || u.protocol === "http:" || u.protocol === "mailto:"; } catch (e) { ok = false; }
    if (ok) {
      li.appendChild(el("a", { href: url, target: "_blank", rel: "noopener noreferrer", text: url }));
      li.appendChild(el("span", { className: "muted", text: " (click to open in a new tab)" }));
    } else {
      li.appendChild(el("span", { className: "error", text: "refused: " + url }));
    }
    $("links").appendChild(li);
  }

  function onViewNotification(view, msg) {
    var p = msg.params || {};
    switch (msg.method) {
      case "ui/notifications/sandbox-proxy-ready":
        log("→ sandbox", "ui/notifications/sandbox-resource-ready (" + view.resource.html.length + " characters of HTML)");
        view.post({ jsonrpc: "2.0", method: "ui/notifications/sandbox-resource-ready", params: {
          html: view.resource.html,
          csp: view.resource.csp,
          permissions: view.resource.permissions
        } });
        return;
      case "ui/notifications/initialized":
        view.initialized = true;
        setViewStatus("initialized", true);
        view.flush();
        return;
      case "ui/notifications/size-changed":
        if (typeof p.height === "number" && p.height > 0 && state.displayMode === "inline") {
          view.frame.style.height = Math.min(Math.ceil(p.height), 4000) + "px";
        }
        return;
      case "ui/notifications/request-teardown":
        teardown("the view asked");
        return;
      case "notifications/message":
        $("log").appendChild(el("li", { text: "[" + (p.level || "info") + "]" + (p.logger ? " " + p.logger : "") + " " + short(p.data) }));
        return;
      default:
        // Other notifications are only logged.
        return;
    }
  }

  window.addEventListener("message", function (ev) {
    if (ev.origin !== sandboxOrigin) { return; }
    var view = [state.view].concat(state.closing).find(function (v) { return v && ev.source === v.frame.contentWindow; });
    if (!view) { return; }
    var msg = ev.data;
    if (!msg || typeof msg !== "object" || msg.jsonrpc !== "2.0") { return; }
    if (typeof msg.method === "string") {
      if (view !== state.view) { return; } // a view being torn down asks nothing more
      log(msg.method.indexOf("ui/notifications/sandbox-") === 0 ? "← sandbox" : "← view", msg.method + (msg.id !== undefined ? " #" + msg.id : "") + " " + short(msg.params || {}));
      if (msg.id !== undefined && msg.id !== null) { onViewRequest(view, msg); } else { onViewNotification(view, msg); }
      return;
    }
    if (msg.id !== undefined && view.pending[msg.id]) {
      log("← view", (msg.error ? "error " + msg.error.message : "result") + " #" + msg.id);
      var resolve = view.pending[msg.id];
      delete view.pending[msg.id];
      resolve(msg);
    }
  });

  function setDisplayMode(mode) {
    state.displayMode = mode;
    $("view-pane").classList.toggle("fullscreen", mode === "fullscreen");
    $("fullscreen-button").textContent = mode === "fullscreen" ? "Exit fullscreen" : "Fullscreen";
    if (state.view && state.view.initialized) {
      state.view.notify("ui/notifications/host-context-changed", { displayMode: mode, containerDimensions: containerDimensions() });
    }
  }

  // ---- wiring ----

  $("call-form").addEventListener("submit", callSelected);
  $("reload-tools").addEventListener("click", function () {
    var selected = state.selected && state.selected.name;
    loadTools().then(function () { if (selected) { select(selected); } });
  });
  $("close-view").addEventListener("click", function () { teardown("closed"); });
  $("fullscreen-button").addEventListener("click", function () { setDisplayMode(state.displayMode === "fullscreen" ? "inline" : "fullscreen"); });
  $("theme-toggle").addEventListener("click", function () {
    state.theme = state.theme === "dark" ? "light" : "dark";
    applyTheme();
    if (state.view && state.view.initialized) {
      state.view.notify("ui/notifications/host-context-changed", { theme: state.theme, styles: styles() });
    }
  });
  window.addEventListener("keydown", function (ev) { if (ev.key === "Escape" && state.displayMode === "fullscreen") { setDisplayMode("inline"); } });
  window.addEventListener("beforeunload", function () { if (state.view && state.view.initialized) { state.view.request("ui/resource-teardown", {}); } });

  applyTheme();
  loadTools().then(function () {
    var first = state.tools.find(function (t) { return t.resourceUri && !t.appOnly; });
    if (first) { select(first.name); }
  });
})();
