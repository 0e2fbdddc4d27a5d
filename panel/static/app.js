// The panel's script: forms marked data-api send JSON (or multipart) to the
// session-only API and show its error messages next to the field they name.
"use strict";

function showError(form, err) {
  form.querySelectorAll("[data-error-for]").forEach(function (el) { el.textContent = ""; });
  var field = (err && err.field) || "";
  var top = field.split(/[.\[]/)[0];
  var el = form.querySelector('[data-error-for="' + top + '"]') || form.querySelector('[data-error-for=""]');
  var msg = (err && err.message) || "The request failed.";
  if (el) { el.textContent = msg; el.setAttribute("role", "alert"); } else { alert(msg); }
}

function gather(form) {
  var out = {};
  var arrays = {};
  Array.prototype.forEach.call(form.elements, function (el) {
    if (!el.name || el.disabled || el.closest(".field[hidden]")) return;
    var v = el.value;
    if (el.hasAttribute("data-array")) {
      arrays[el.name] = arrays[el.name] || [];
      if ((el.type === "checkbox" || el.type === "radio") && !el.checked) return;
      arrays[el.name].push(v);
      return;
    }
    if (el.type === "radio" && !el.checked) return;
    switch (el.getAttribute("data-type")) {
      case "boolean": out[el.name] = el.checked; return;
      case "text": out[el.name] = v; return;
      case "integer": if (v !== "") out[el.name] = parseInt(v, 10); return;
      case "number": if (v !== "") out[el.name] = parseFloat(v); return;
      case "csv": if (v.trim() !== "") out[el.name] = v.split(",").map(function (s) { return s.trim(); }).filter(Boolean); return;
      case "json": if (v.trim() !== "") out[el.name] = JSON.parse(v); return;
      case "datetime": if (v !== "") out[el.name] = new Date(v + "Z").toISOString(); return;
    }
    if (el.type === "checkbox") { if (el.checked) out[el.name] = v; return; }
    if (v !== "") out[el.name] = v;
  });
  Object.keys(arrays).forEach(function (k) { if (arrays[k].length) out[k] = arrays[k]; });
  return out;
}

function send(form) {
  var method = form.getAttribute("data-method") || "POST";
  var opts = { method: method, credentials: "same-origin", headers: {} };
  if (form.hasAttribute("data-multipart")) {
    opts.body = new FormData(form);
  } else if (method !== "DELETE" && method !== "GET") {
    var body;
    try { body = gather(form); } catch (e) {
      var bad = { message: "A JSON field could not be read: " + e.message };
      showError(form, bad);
      if (window.runFormFailed) window.runFormFailed(form, bad);
      return;
    }
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  var button = form.querySelector("[type=submit]");
  if (button) button.disabled = true;
  fetch(form.getAttribute("data-api"), opts).then(function (res) {
    return res.json().catch(function () { return {}; }).then(function (data) { return { ok: res.ok, data: data }; });
  }).then(function (r) {
    if (button) button.disabled = false;
    if (!r.ok) { showError(form, r.data.error); if (window.runFormFailed) window.runFormFailed(form, r.data.error); return; }
    if (form.hasAttribute("data-show-key") && r.data.key) {
      var box = document.getElementById("new-key-box");
      document.getElementById("new-key").value = r.data.key;
      box.hidden = false;
      box.scrollIntoView();
      document.getElementById("new-key").focus();
      return;
    }
    if (form.hasAttribute("data-go-job") && r.data.job_id) { location.href = "/app/jobs/" + r.data.job_id; return; }
    var live = form.closest("#job-live");
    if (live) { refreshJob(live); return; }
    location.reload();
  }).catch(function () {
    if (button) button.disabled = false;
    showError(form, { message: "The panel could not reach the service; try again." });
  });
}

// refreshJob puts the job page's live part (status, progress, error,
// outputs, deliveries) in place from /app/jobs/{id}/live, and resolves to
// whether the job still runs. A signed-out session reloads the page, which
// asks to sign in.
function refreshJob(live) {
  var id = live.getAttribute("data-job");
  return fetch("/app/jobs/" + encodeURIComponent(id) + "/live", { credentials: "same-origin", cache: "no-store" }).then(function (r) {
    if (r.status === 401) { location.reload(); return null; }
    return r.ok ? r.text() : null;
  }).then(function (html) {
    if (html === null) return false;
    // The outputs already shown keep their image elements: a new element
    // would load its thumbnail again and show blank meanwhile.
    var shown = {};
    live.querySelectorAll("figure.file img").forEach(function (img) { shown[img.getAttribute("src")] = img; });
    live.innerHTML = html;
    live.querySelectorAll("figure.file img").forEach(function (img) {
      var old = shown[img.getAttribute("src")];
      if (old) img.replaceWith(old);
    });
    bind(live);
    var job = live.querySelector("#job");
    return !!job && job.getAttribute("data-running") === "true";
  });
}

// followJob refreshes the live part every second while the job runs:
// outputs appear as they are delivered, without a reload.
function followJob(live) {
  setTimeout(function () {
    refreshJob(live).then(function (running) { if (running) followJob(live); }, function () { followJob(live); });
  }, 1000);
}

// bind gives the forms and buttons under root their behaviour.
function bind(root) {
  root.querySelectorAll("form[data-api]").forEach(function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var ask = form.getAttribute("data-confirm");
      if (ask && !confirm(ask)) return;
      send(form);
    });
  });
}

document.addEventListener("DOMContentLoaded", function () {
  bind(document);
  document.querySelectorAll("[data-copy]").forEach(function (b) {
    b.addEventListener("click", function () {
      var el = document.querySelector(b.getAttribute("data-copy"));
      el.select();
      (navigator.clipboard ? navigator.clipboard.writeText(el.value) : Promise.resolve(document.execCommand("copy"))).then(function () { b.textContent = "Copied"; });
    });
  });
  document.querySelectorAll("[data-filter]").forEach(function (box) {
    box.addEventListener("input", function () {
      var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      document.querySelectorAll(box.getAttribute("data-filter")).forEach(function (el) {
        var text = (el.getAttribute("data-search") || el.textContent).toLowerCase();
        el.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
        if (!el.hidden) shown++;
      });
      document.querySelectorAll("[data-category]").forEach(function (c) { c.hidden = !c.querySelector(".task:not([hidden])"); });
      var none = document.getElementById("no-task");
      if (none) none.hidden = shown > 0;
    });
  });
  var job = document.getElementById("job");
  if (job && job.getAttribute("data-running") === "true") followJob(document.getElementById("job-live"));
});
