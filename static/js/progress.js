// The run page: polls the progress partial every 1.5 s and swaps it in, without reloading,
// until the run is done, failed or cancelled. Also counts the seconds of a running stage.
// A finished run's graph and its "Ask again" come with the partial that says it is done.
(function () {
  "use strict";
  var box = document.getElementById("progress");
  if (!box) return;
  var url = box.getAttribute("data-progress-url");
  var INTERVAL = 1500;
  var last = normalise(box.innerHTML);
  var failures = 0;

  // Django masks the CSRF token differently on every render: ignore it when comparing.
  function normalise(html) {
    return html.replace(/name="csrfmiddlewaretoken" value="[^"]*"/g, "");
  }
  function root() { return box.querySelector(".progress"); }
  function live() { var r = root(); return r && r.getAttribute("data-live") === "true"; }

  function tick() {
    box.querySelectorAll("[data-since]").forEach(function (el) {
      var seconds = Math.max(0, (Date.now() - Date.parse(el.getAttribute("data-since"))) / 1000);
      var r = root();
      var words = (r && r.getAttribute("data-running-for")) || "running for {time}";
      el.textContent = words.replace("{time}", format(seconds));
    });
  }
  function format(s) {
    if (s < 60) return Math.floor(s) + " s";
    var m = Math.floor(s / 60), r = Math.floor(s % 60);
    return m + " min " + (r < 10 ? "0" : "") + r + " s";
  }
  // Screen readers hear the run's state when it changes, not the whole list again.
  function title() {
    var r = root();
    if (!r || !r.getAttribute("data-title")) return;
    document.title = r.getAttribute("data-title") + " · Verdict";
    var status = document.getElementById("progress-status");
    if (status) status.textContent = r.getAttribute("data-announce") || "";
  }

  // The options, once the first stage has read them from the question.
  function options() {
    var now = document.getElementById("options-now");
    var shown = document.getElementById("run-options");
    if (now && shown && shown.innerHTML !== now.innerHTML) shown.innerHTML = now.innerHTML;
  }

  // The recommendation, once the run is done: above the run's details, so that on a
  // phone it is on the first screen.
  function verdict() {
    var now = document.getElementById("verdict-now");
    var slot = document.getElementById("run-verdict");
    if (!slot) return;
    if (!now) {
      // A finished run's page shows its verdict itself; any other state shows none.
      var progress = document.querySelector(".progress");
      if (!progress || progress.getAttribute("data-state") !== "done") slot.innerHTML = "";
      return;
    }
    if (normalise(slot.innerHTML) !== normalise(now.innerHTML)) slot.innerHTML = now.innerHTML;
  }

  function poll() {
    fetch(url, { headers: { "X-Requested-With": "fetch" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.redirected || !response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        failures = 0;
        if (normalise(html) !== last) {
          box.innerHTML = html;
          last = normalise(html);
          title();
          options();
          verdict();
        }
        tick();
        if (live()) window.setTimeout(poll, INTERVAL);
      })
      .catch(function () {
        // Keep trying a little slower; after a minute of failures, say so and stop.
        failures += 1;
        if (failures > 20) {
          var note = document.createElement("p");
          note.className = "alert warn";
          var r = root();
          note.textContent = (r && r.getAttribute("data-lost")) ||
            "Lost touch with the server. Reload the page to see the latest progress.";
          box.prepend(note);
          return;
        }
        window.setTimeout(poll, INTERVAL * 2);
      });
  }

  box.addEventListener("submit", function (event) {
    var message = event.target.getAttribute("data-confirm");
    if (message && !window.confirm(message)) event.preventDefault();
  });
  if (live()) {
    tick();
    window.setInterval(tick, 1000);
    window.setTimeout(poll, INTERVAL);
  }
})();
