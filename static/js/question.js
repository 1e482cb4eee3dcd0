// The question form: a live character count, and rows of custom dimensions that can be
// added and removed. Without JavaScript the form still works with its fixed blank rows.
(function () {
  "use strict";
  var form = document.getElementById("question-form");
  if (!form) return;
  document.documentElement.classList.add("js");

  // What the script writes comes from the page, translated there into its language.
  var textElement = document.getElementById("question-text");
  var text = textElement ? JSON.parse(textElement.textContent) : {};
  function wording(key, fill, fallback) {
    var template = text[key] || fallback;
    Object.keys(fill).forEach(function (name) {
      template = template.split("{" + name + "}").join(fill[name]);
    });
    return template;
  }

  // --- character count ---------------------------------------------------------------
  var question = form.querySelector("[data-counter]");
  if (question) {
    var counter = document.getElementById(question.getAttribute("data-counter"));
    var shown = counter.querySelector("[data-count]");
    var max = parseInt(question.getAttribute("maxlength"), 10);
    var update = function () {
      var length = question.value.length;
      shown.textContent = length.toLocaleString();
      counter.classList.toggle("near", length > max * 0.9 && length <= max);
      counter.classList.toggle("over", length > max);
    };
    question.addEventListener("input", update);
    update();
  }

  // --- dimension rows ----------------------------------------------------------------
  var rows = form.querySelector("[data-custom-rows]");
  var presets = form.querySelectorAll('input[name="preset"]');
  var addButton = rows.querySelector("[data-add-row]");
  var lastPreset = null;

  function allRows() { return rows.querySelectorAll("[data-row]"); }
  function isBlank(row) {
    return Array.prototype.every.call(row.querySelectorAll("input"), function (i) { return !i.value.trim(); });
  }
  function renumber() {
    var list = allRows();
    list.forEach(function (row, n) {
      var inputs = row.querySelectorAll("input");
      inputs[0].setAttribute("aria-label", wording("dimension_name", { n: n + 1 }, "Dimension name {n}"));
      inputs[1].setAttribute("aria-label", wording("dimension_weight", { n: n + 1 }, "Weight of dimension {n}"));
      var remove = row.querySelector("[data-remove-row]");
      remove.hidden = list.length < 2;
      remove.setAttribute("aria-label", wording("remove_dimension", { n: n + 1 }, "Remove dimension {n}"));
    });
  }
  function addRow(name, weight) {
    var list = allRows();
    var row = list[list.length - 1].cloneNode(true);
    var inputs = row.querySelectorAll("input");
    inputs[0].value = name || "";
    inputs[1].value = weight || "";
    rows.insertBefore(row, addButton);
    renumber();
    return row;
  }
  function fillFrom(preset) {
    // Start custom rows from the preset the person had chosen, so they can adjust it.
    if (!preset || !Array.prototype.every.call(allRows(), isBlank)) return;
    var pairs = preset.getAttribute("data-dimensions").split(";");
    var list = allRows();
    pairs.forEach(function (pair, n) {
      var parts = pair.split("|");
      var row = list[n] || addRow();
      var inputs = row.querySelectorAll("input");
      inputs[0].value = parts[0];
      inputs[1].value = parts[1] + "%";
    });
  }
  function sync() {
    var chosen = form.querySelector('input[name="preset"]:checked');
    var custom = chosen && chosen.value === "custom";
    if (custom) fillFrom(lastPreset);
    else if (chosen) lastPreset = chosen;
    rows.classList.toggle("collapsed", !custom);
  }

  // Keep one blank row at the end; more can be added on request.
  allRows().forEach(function (row, n, list) {
    if (n > 0 && isBlank(row) && isBlank(list[n - 1])) row.remove();
  });
  addButton.hidden = false;
  addButton.addEventListener("click", function () {
    addRow().querySelector("input").focus();
  });
  rows.addEventListener("click", function (event) {
    var button = event.target.closest("[data-remove-row]");
    if (!button || allRows().length < 2) return;
    button.closest("[data-row]").remove();
    renumber();
  });
  presets.forEach(function (radio) { radio.addEventListener("change", sync); });
  renumber();
  sync();

  // --- dimensions read from the question as it is typed ------------------------------
  // The server reads them (the same rules a submitted question goes through); rows the
  // person filled in themselves are never overwritten.
  var readingUrl = form.getAttribute("data-reading-url");
  var note = form.querySelector("[data-reading]");
  var custom = form.querySelector('input[name="preset"][value="custom"]');
  var prefilled = false;
  var timer = null;
  var asked = 0;

  function setRows(dims) {
    var list = allRows();
    for (var n = list.length - 1; n > 0; n--) list[n].remove();
    var first = allRows()[0].querySelectorAll("input");
    first[0].value = "";
    first[1].value = "";
    dims.forEach(function (d, n) {
      var row = n === 0 ? allRows()[0] : addRow();
      var inputs = row.querySelectorAll("input");
      inputs[0].value = d.name;
      inputs[1].value = d.percent + "%";
    });
    addRow();
    renumber();
  }
  function say(text, bad) {
    note.textContent = text;
    note.hidden = !text;
    note.classList.toggle("bad", !!bad);
  }
  function apply(reading) {
    var dims = reading.dimensions || [];
    var problem = (reading.problems || {}).dimensions;
    var own = !prefilled && !Array.prototype.every.call(allRows(), isBlank);
    if (own) {
      say(dims.length ? wording("own_rows", {}, "The question names dimensions too; the rows below are used.") : "");
      return;
    }
    if (dims.length) {
      setRows(dims);
      prefilled = true;
      custom.checked = true;
      sync();
      say(wording("read", {
        dimensions: dims.map(function (d) { return d.name + " " + d.percent + "%"; })
          .join(" · ")
      }, "Read from the question: {dimensions}. Change them below if you like."));
      return;
    }
    if (prefilled) {
      setRows([]);
      prefilled = false;
      if (lastPreset) lastPreset.checked = true;
      sync();
    }
    say(problem || "", !!problem);
  }
  function read() {
    var mine = ++asked;
    var url = readingUrl + "?question=" + encodeURIComponent(question.value);
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (reading) { if (reading && mine === asked) apply(reading); })
      .catch(function () { /* the server reads the question again when it is sent */ });
  }
  if (readingUrl && note && question) {
    question.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(read, 250);
    });
    rows.addEventListener("input", function () { prefilled = false; });
    if (question.value.trim() && Array.prototype.every.call(allRows(), isBlank)) read();
  }
})();
