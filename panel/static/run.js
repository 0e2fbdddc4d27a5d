// The run form's script: fields of other variants hidden, pickers of files
// and records from the refs endpoints, removable colours, the price before
// Run, the refusal summed up at the top and the same input as curl, CLI and
// Go. Sending the form is app.js's (send, gather).
"use strict";

// imageExt are the file types a task's image field takes; a stored file's
// URL ends with the extension of its type (models.File.URL).
var imageExt = /\.(png|jpe?g|webp|gif|bmp)$/i;

// takesFile says whether a picker of images lists item: a stored image, or
// a registered URL (its type is not known until a job reads it).
function takesFile(item) {
  if (!item.url) return false;
  if (item.url.indexOf("/files/") < 0) return true;
  return imageExt.test(item.url.split("?")[0]);
}

function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// pickerItem adds one choice to a picker: a radio (one value) or a
// checkbox (a list) with the item's image and name.
function pickerItem(picker, item, checked) {
  var multi = picker.getAttribute("data-multi") === "true";
  var label = el("label", "pick");
  var input = document.createElement("input");
  input.type = multi ? "checkbox" : "radio";
  input.name = picker.getAttribute("data-picker");
  input.value = item.file;
  input.checked = !!checked;
  if (multi) input.setAttribute("data-array", "");
  label.appendChild(input);
  if (item.url && takesFile(item)) {
    var img = document.createElement("img");
    var handle = /^(file|art):(.+)$/.exec(item.file || "");
    // A stored file is shown as its small copy, never its original.
    img.src = handle && item.url.indexOf("/files/") >= 0 ? "/app/thumbs/" + encodeURIComponent(handle[2]) : item.url;
    img.alt = "";
    label.appendChild(img);
  } else {
    label.appendChild(el("span", "noimg", (item.file || "").split(":")[0]));
  }
  var kind = (item.file || "").split(":")[0];
  // A file's name is its kind (file, art): its own id says more.
  var name = (item.name && item.name !== kind ? item.name : "") || item.external_id || item.file;
  label.appendChild(el("span", "small name", name));
  var extra = [item.kind, item.gender].filter(Boolean).join(" · ");
  if (name !== item.file) label.appendChild(el("span", "mono small muted", item.file));
  if (extra) label.appendChild(el("span", "small muted", extra));
  label.setAttribute("data-search", [item.file, item.name, item.external_id, item.kind, item.gender].filter(Boolean).join(" ").toLowerCase());
  picker.appendChild(label);
  return input;
}

// optionalChoice adds the "leave it to the default" choice of a picker of
// one value that is not required.
function optionalChoice(picker) {
  var label = el("label", "pick default");
  var input = document.createElement("input");
  input.type = "radio"; input.name = picker.getAttribute("data-picker"); input.value = ""; input.checked = true;
  var def = picker.getAttribute("data-optional");
  label.appendChild(input);
  label.appendChild(el("span", "noimg", "default"));
  label.appendChild(el("span", "small name", def ? "Default (" + def + ")" : "None"));
  label.setAttribute("data-search", "default " + def);
  picker.appendChild(label);
}

// colourChoice adds a choice of a studio colour to a picker that also
// takes #RRGGBB (a background).
function colourChoice(picker) {
  var label = el("label", "pick colour");
  var input = document.createElement("input");
  input.type = "radio"; input.name = picker.getAttribute("data-picker"); input.value = "#F3EFE8";
  var c = document.createElement("input");
  c.type = "color"; c.value = "#f3efe8"; c.setAttribute("aria-label", "A colour instead");
  c.addEventListener("input", function () { input.value = c.value.toUpperCase(); input.checked = true; changed(picker); });
  label.appendChild(input); label.appendChild(c);
  label.appendChild(el("span", "small name", "A colour"));
  label.setAttribute("data-search", "colour color");
  picker.appendChild(label);
}

function changed(node) {
  var form = node.closest("form");
  if (form) form.dispatchEvent(new Event("change", { bubbles: true }));
}

// refsPage fetches one page of the account's reference items of kind.
function refsPage(kind, cursor) {
  var url = "/v1/account/refs/" + encodeURIComponent(kind) + "?limit=100" + (cursor ? "&cursor=" + encodeURIComponent(cursor) : "");
  return fetch(url, { credentials: "same-origin" }).then(function (r) { return r.ok ? r.json() : { items: [] }; });
}

// addItems puts a page's items a picker takes in it, and counts them.
function addItems(picker, items) {
  var images = picker.hasAttribute("data-images");
  var def = picker.getAttribute("data-optional");
  var more = picker.querySelector(".more-items");
  var n = 0;
  items.forEach(function (it) {
    if (images && !takesFile(it)) return;
    var input = pickerItem(picker, it, false);
    if (more) picker.appendChild(more);
    var fallback = picker.querySelector(".pick.default");
    if (def && def === it.file && fallback) fallback.remove();
    if (def && def === it.file && !picker.querySelector("input:checked")) input.checked = true;
    n++;
  });
  return n;
}

// moreButton offers the next pages of the kinds that have more.
function moreButton(picker, cursors) {
  var old = picker.querySelector(".more-items");
  if (old) old.remove();
  var kinds = Object.keys(cursors).filter(function (k) { return cursors[k]; });
  if (!kinds.length) return;
  var b = el("button", "btn small more-items", "Show more");
  b.type = "button";
  b.addEventListener("click", function () {
    b.disabled = true;
    Promise.all(kinds.map(function (k) { return refsPage(k, cursors[k]); })).then(function (pages) {
      pages.forEach(function (p, i) {
        cursors[kinds[i]] = p.has_more ? p.next_cursor : null;
        addItems(picker, p.items || []);
      });
      moreButton(picker, cursors);
      var search = document.querySelector('[data-search-picker="' + picker.getAttribute("data-picker") + '"]');
      if (search) search.dispatchEvent(new Event("input"));
    });
  });
  picker.appendChild(b);
}

// loadPicker lists what a field accepts: the kinds it names, from the refs
// endpoint, images only for an image field; "Show more" pages on.
function loadPicker(picker) {
  var kinds = picker.getAttribute("data-kinds").split(",").filter(Boolean);
  Promise.all(kinds.map(function (k) { return refsPage(k, ""); })).then(function (pages) {
    picker.innerHTML = "";
    if (picker.hasAttribute("data-optional") && picker.getAttribute("data-multi") !== "true") optionalChoice(picker);
    var n = 0;
    var cursors = {};
    pages.forEach(function (p, i) {
      cursors[kinds[i]] = p.has_more ? p.next_cursor : null;
      n += addItems(picker, p.items || []);
    });
    if (picker.hasAttribute("data-colour")) colourChoice(picker);
    if (!n) {
      var images = picker.hasAttribute("data-images");
      picker.appendChild(el("p", "muted small empty", images ? "No images yet: upload one below." : "Nothing to choose yet."));
    }
    moreButton(picker, cursors);
    changed(picker);
  });
}

function upload(input) {
  var name = input.getAttribute("data-upload-into");
  var picker = document.querySelector('[data-picker="' + name + '"]');
  var fd = new FormData();
  fd.append("file", input.files[0]);
  var form = input.form;
  fetch("/v1/account/files", { method: "POST", body: fd, credentials: "same-origin" }).then(function (r) {
    return r.json().then(function (d) { return { ok: r.ok, data: d }; });
  }).then(function (r) {
    if (!r.ok) { showError(form, Object.assign({}, r.data.error, { field: name })); return; }
    var empty = picker.querySelector(".empty"); if (empty) empty.remove();
    pickerItem(picker, { file: r.data.file, url: r.data.url, external_id: input.files[0].name }, true);
    changed(picker);
  });
}

// applyVariant hides the fields the chosen variant does not use; gather
// leaves hidden fields out.
function applyVariant(form) {
  var name = form.getAttribute("data-variant-field");
  if (!name) return;
  var sel = form.elements[name];
  var v = (sel && sel.value) || form.getAttribute("data-variant-default");
  form.querySelectorAll(".field[data-variants]").forEach(function (f) {
    f.hidden = f.getAttribute("data-variants").split(",").indexOf(v) < 0;
  });
}

function colourChip(list, name, value) {
  var chip = el("span", "chip");
  var c = document.createElement("input");
  c.type = "color"; c.name = name; c.value = value; c.setAttribute("data-array", "");
  c.setAttribute("aria-label", name + " " + list.querySelectorAll(".chip").length);
  var x = el("button", "remove", "×");
  x.type = "button"; x.setAttribute("data-remove-colour", ""); x.setAttribute("aria-label", "Remove colour");
  chip.appendChild(c); chip.appendChild(x);
  return chip;
}

// estimate asks the service what the input would cost, as a submit would
// check it, and shows the price before Run.
var estimateTimer, estimateSeq = 0;
function estimate(form) {
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(function () {
    var box = document.getElementById("estimate");
    var body;
    try { body = gather(form); } catch (e) { box.innerHTML = ""; box.appendChild(el("span", "muted", "The price shows once the JSON fields read.")); return; }
    var seq = ++estimateSeq;
    fetch("/v1/account/tasks/" + encodeURIComponent(form.getAttribute("data-task")) + "/estimate", {
      method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (d) { return { ok: r.ok, data: d }; });
    }).then(function (r) {
      if (seq !== estimateSeq) return;
      box.innerHTML = "";
      if (!r.ok) {
        var msg = (r.data.error && r.data.error.message) || "The input is not complete yet.";
        box.className = "estimate pending";
        box.appendChild(el("span", "muted", "The price shows once the input is complete: " + msg));
        return;
      }
      var d = r.data;
      var credits = d.credit_type === "service_credits" ? "credits" : d.credit_type.replace(/_/g, " ");
      box.className = "estimate ready";
      box.appendChild(el("strong", "", "Up to " + d.credits + " " + credits));
      box.appendChild(el("span", "muted", " · " + d.outputs + " output" + (d.outputs === 1 ? "" : "s") + " × " +
        d.price_per_output + " each; charged only for what is delivered"));
    }).catch(function () {});
  }, 300);
}

// runFormFailed sums a refusal up above the form, links the field it names
// and scrolls to it.
window.runFormFailed = function (form, err) {
  var box = document.getElementById("run-errors");
  if (!box) return;
  box.innerHTML = "";
  box.appendChild(el("p", "reason", "The task was not started: " + ((err && err.message) || "the request failed.")));
  var field = err && err.field;
  if (field) {
    var top = field.split(/[.\[]/)[0];
    var target = form.querySelector('[data-field="' + top + '"]');
    var p = el("p", "small");
    if (target) {
      var a = el("a", "", "Go to " + field);
      a.href = "#in-" + top;
      a.addEventListener("click", function (e) {
        e.preventDefault();
        target.scrollIntoView({ block: "center" });
        var input = target.querySelector("input, select, textarea");
        if (input) input.focus();
      });
      p.appendChild(a);
    } else {
      p.textContent = "Field: " + field;
    }
    box.appendChild(p);
  }
  if (err && err.code) box.appendChild(el("p", "small mono", err.code));
  box.hidden = false;
  box.scrollIntoView({ block: "start" });
  box.focus();
};

function shellQuote(s) { return "'" + s.replace(/'/g, "'\\''") + "'"; }

function goString(s) { return s.indexOf("`") < 0 ? "`" + s + "`" : JSON.stringify(s); }

// snippets are the form's input as the other ways in: curl against the
// API, the command line, the Go client.
var snippets = {
  curl: function (task, json) {
    return "curl -X POST " + location.origin + "/v1/tasks/" + task + " \\\n" +
      "  -H \"Authorization: Bearer $TP_API_KEY\" \\\n" +
      "  -H \"Content-Type: application/json\" \\\n" +
      "  -d " + shellQuote(json);
  },
  cli: function (task, json) {
    return "export TP_BASE_URL=" + location.origin + " TP_API_KEY=…\n" +
      "taskplatform run " + task + " --input - --out out/ <<'JSON'\n" + json + "\nJSON";
  },
  go: function (task, json) {
    return "package main\n\nimport (\n\t\"context\"\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"log\"\n\n" +
      "\t\"github.com/taskplatform/taskplatform/client\"\n)\n\n" +
      "func main() {\n\tc, err := client.NewFromEnv() // TP_API_KEY, TP_BASE_URL\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n" +
      "\tinput := json.RawMessage(" + goString(json) + ")\n" +
      "\tres, files, err := c.Run(context.Background(), \"" + task + "\", input, &client.RunOptions{DownloadDir: \"out\"})\n" +
      "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tfmt.Println(res.JobID, files)\n}";
  }
};
var snippetKind = "curl";

function showSnippet(form) {
  var pre = document.getElementById("snippet");
  if (!pre) return;
  var json;
  try { json = JSON.stringify(gather(form), null, 2); } catch (e) { pre.textContent = "A JSON field could not be read: " + e.message; return; }
  pre.textContent = snippets[snippetKind](form.getAttribute("data-task"), json);
}

document.addEventListener("DOMContentLoaded", function () {
  var form = document.getElementById("run-form");
  if (!form) return;
  document.querySelectorAll("[data-enables]").forEach(function (cb) {
    cb.addEventListener("change", function () { document.getElementById(cb.getAttribute("data-enables")).disabled = !cb.checked; changed(cb); });
  });
  form.addEventListener("click", function (e) {
    var add = e.target.closest("[data-add-colour]");
    if (add) {
      add.parentNode.insertBefore(colourChip(add.parentNode, add.getAttribute("data-add-colour"), "#888888"), add);
      changed(add);
    }
    var rm = e.target.closest("[data-remove-colour]");
    if (rm) {
      var list = rm.closest(".colourrow");
      rm.parentNode.remove();
      changed(list);
    }
  });
  document.querySelectorAll("[data-picker]").forEach(loadPicker);
  document.querySelectorAll("[data-upload-into]").forEach(function (i) { i.addEventListener("change", function () { if (i.files.length) upload(i); }); });
  document.querySelectorAll("[data-search-picker]").forEach(function (box) {
    box.addEventListener("input", function () {
      var words = box.value.toLowerCase().split(/\s+/).filter(Boolean);
      var picker = document.querySelector('[data-picker="' + box.getAttribute("data-search-picker") + '"]');
      picker.querySelectorAll(".pick").forEach(function (p) {
        var text = p.getAttribute("data-search") || "";
        p.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
      });
    });
  });
  document.querySelectorAll("[data-snippet]").forEach(function (tab) {
    tab.addEventListener("click", function () {
      snippetKind = tab.getAttribute("data-snippet");
      document.querySelectorAll("[data-snippet]").forEach(function (t) { t.setAttribute("aria-selected", String(t === tab)); });
      showSnippet(form);
    });
  });
  var copy = document.getElementById("copy-snippet");
  copy.addEventListener("click", function () {
    var text = document.getElementById("snippet").textContent;
    (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject()).then(function () { copy.textContent = "Copied"; },
      function () { copy.textContent = "Select the text to copy"; });
  });
  function update(e) {
    if (e && e.target && e.target.closest && e.target.closest("[data-search-picker]")) return;
    applyVariant(form);
    estimate(form);
    showSnippet(form);
  }
  form.addEventListener("change", update);
  form.addEventListener("input", update);
  update();
});
