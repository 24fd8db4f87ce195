// The sandbox proxy of the fastmcp preview (MCP Apps "double iframe"):
// served on its own origin, it loads the view's HTML into an inner
// sandboxed iframe and relays JSON-RPC messages between the host page and
// the view, except the ui/notifications/sandbox-* ones, which are its own.
// It never sends requests of its own.
(function () {
  "use strict";
  var hostOrigin = document.querySelector('meta[name="fastmcp-host-origin"]').content;
  var inner = null;
  var DEFAULT_SANDBOX = "allow-scripts allow-same-origin allow-forms";

  function toHost(msg) {
    window.parent.postMessage(msg, hostOrigin);
  }

  // allowOf maps _meta.ui.permissions to the iframe's Permissions Policy.
  function allowOf(perms) {
    var features = { camera: "camera", microphone: "microphone", geolocation: "geolocation", clipboardWrite: "clipboard-write" };
    var out = [];
    if (perms && typeof perms === "object") {
      Object.keys(features).forEach(function (k) {
        if (Object.prototype.hasOwnProperty.call(perms, k)) {
          out.push(features[k]);
        }
      });
    }
    return out.join("; ");
  }

  function load(params) {
    if (inner) {
      inner.remove();
    }
    inner = document.createElement("iframe");
    inner.setAttribute("sandbox", typeof params.sandbox === "string" ? params.sandbox : DEFAULT_SANDBOX);
    var allow = allowOf(params.permissions);
    if (allow) {
      inner.setAttribute("allow", allow);
    }
    inner.setAttribute("title", "MCP App view");
    // srcdoc keeps the sandbox's CSP (a srcdoc document inherits its
    // parent's policy), built from the resource's _meta.ui.csp.
    inner.srcdoc = typeof params.html === "string" ? params.html : "";
    document.body.appendChild(inner);
  }

  window.addEventListener("message", function (ev) {
    var msg = ev.data;
    if (!msg || typeof msg !== "object" || msg.jsonrpc !== "2.0") {
      return;
    }
    if (ev.source === window.parent) {
      if (ev.origin !== hostOrigin) {
        return;
      }
      if (msg.method === "ui/notifications/sandbox-resource-ready") {
        load(msg.params || {});
        return;
      }
      if (typeof msg.method === "string" && msg.method.indexOf("ui/notifications/sandbox-") === 0) {
        return;
      }
      if (inner && inner.contentWindow) {
        inner.contentWindow.postMessage(msg, "*");
      }
      return;
    }
    if (inner && ev.source === inner.contentWindow) {
      if (typeof msg.method === "string" && msg.method.indexOf("ui/notifications/sandbox-") === 0) {
        return;
      }
      toHost(msg);
    }
  });

  toHost({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} });
})();
