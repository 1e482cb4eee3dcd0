// What-if weights on the report page: move a dimension's weight and every total, the
// ranking, the chart and the recommendation follow at once, from the cell scores the page
// already has. The rule is the decide stage's (decisions/scoring, "total(o)"):
//
//   total(o) = sum(w_d * s(o, d)) / sum(w_d) over every dimension, s = the cell's score, or
//   the neutral 50 for a cell without evidence; no total for an option without evidence.
//   Ranking: highest total (to one decimal) first, ties to more cells with evidence, then
//   name. The best-scoring option is recommended unless its evidence comes from fewer than
//   two independent sites, covers less than half of the weight, or leads the runner-up only
//   where the runner-up has no evidence (decisions.withhold).
//
// The page hands the numbers over as JSON (#whatif-data); nothing here asks the server.
// The computing half also runs under Node, so tests check it against the server's.
(function (root) {
  "use strict";

  // Python's round(x, 1): the nearest tenth, an exact tie going to the even tenth. The
  // only exact ties a double can hold are x.25 and x.75; toFixed rounds the exact value.
  function round1(x) {
    var whole = Math.floor(Math.abs(x));
    var frac = Math.abs(x) - whole;
    if (frac === 0.25 || frac === 0.75) {
      return Math.sign(x) * (whole * 10 + (frac === 0.25 ? 2 : 8)) / 10;
    }
    return Number(x.toFixed(1));
  }

  function sum(values) { return values.reduce(function (a, w) { return a + w; }, 0); }

  // The weights as the server saves them: each over their sum, so the same sums in the
  // same order give the same doubles as decisions.scoring.totals.total().
  function normalised(weights) {
    var whole = sum(weights);
    return whole ? weights.map(function (w) { return w / whole; }) : weights;
  }

  function totals(model, given) {
    var weights = normalised(given);
    var whole = sum(weights);
    var out = {};
    model.options.forEach(function (o) {
      var any = o.scores.some(function (s) { return s !== null; });
      if (!any || !whole) { out[o.option] = null; return; }
      var sum = 0;
      o.scores.forEach(function (s, d) { sum += weights[d] * (s === null ? model.neutral : s); });
      out[o.option] = sum / whole;
    });
    return out;
  }

  function evidenceShare(model, option, given) {
    var weights = normalised(given);
    var whole = sum(weights);
    if (!whole) return 0;
    var on = 0;
    option.scores.forEach(function (s, d) { if (s !== null) on += weights[d]; });
    return 100 * on / whole;
  }

  function rank(model, weights) {
    var raw = totals(model, weights);
    var rows = model.options.map(function (o) {
      var t = raw[o.option];
      return {
        option: o.option,
        raw: t,
        total: t === null ? null : round1(t),
        evidence: o.evidence,
        sites: o.sites,
        evidenceShare: round1(evidenceShare(model, o, weights))
      };
    });
    rows.sort(function (a, b) {
      if ((a.total === null) !== (b.total === null)) return a.total === null ? 1 : -1;
      if (a.total !== b.total) return (b.total || 0) - (a.total || 0);
      if (a.evidence !== b.evidence) return b.evidence - a.evidence;
      return a.option < b.option ? -1 : a.option > b.option ? 1 : 0;
    });
    rows.forEach(function (r, i) { r.rank = i + 1; });
    return rows;
  }

  function recommend(model, ranking, weights) {
    var scored = ranking.filter(function (r) { return r.total !== null; });
    if (!scored.length) return { option: null, why: "nothing" };
    if (scored[0].sites < model.min_sites) return { option: null, why: "single_site", top: scored[0].option };
    var held = withheld(model, ranking, weights);
    if (held) return { option: null, why: held.why, top: scored[0].option, over: held.over };
    return { option: scored[0].option, why: "" };
  }

  // decisions.withhold, in its order of sums: the leader's evidence must cover at least
  // half of the weight, and on the dimensions where both it and the runner-up have
  // evidence it must score higher, weighted.
  function withheld(model, ranking, given) {
    var whole = sum(given);
    if (!whole) return null;
    var share = given.map(function (w) { return w / whole; });
    var leader = byName(model, ranking[0].option);
    var next = ranking.filter(function (r) { return r.option !== leader.option; })[0];
    var cover = 0;
    leader.scores.forEach(function (s, d) { if (s !== null) cover += share[d]; });
    if (cover < model.half) return { why: "thin_evidence", over: next ? next.option : null };
    if (!next) return null;
    var runner = byName(model, next.option), lead = 0;
    leader.scores.forEach(function (s, d) {
      var r = runner.scores[d];
      if (s !== null && r !== null) lead += share[d] * (s - r);
    });
    return lead > 0 ? null : { why: "unshared_lead", over: next.option };
  }

  // The smallest change to one weight, the others kept, that puts the runner-up ahead of
  // the leader: {dimension, from, to} in the units of the weights, or null.
  function toWin(model, weights, ranking) {
    var scored = ranking.filter(function (r) { return r.total !== null; });
    if (scored.length < 2) return null;
    var lead = byName(model, scored[0].option), next = byName(model, scored[1].option);
    var gap = 0;  // sum of w * (s_next - s_lead): below zero while the leader leads
    var diffs = model.dimensions.map(function (_, d) {
      var diff = score(model, next, d) - score(model, lead, d);
      gap += weights[d] * diff;
      return diff;
    });
    var best = null;
    diffs.forEach(function (diff, d) {
      if (!diff) return;
      var change = -gap / diff;
      var to = weights[d] + change;
      to = diff > 0 ? Math.floor(to) + 1 : Math.ceil(to) - 1;  // whole steps, past the tie
      if (to <= 0 || to > model.max_weight) return;
      if (best === null || Math.abs(to - weights[d]) < Math.abs(best.to - best.from)) {
        best = { dimension: model.dimensions[d].name, index: d, from: weights[d], to: to };
      }
    });
    return best ? Object.assign(best, { option: next.option, over: lead.option }) : null;
  }

  function byName(model, name) {
    return model.options.filter(function (o) { return o.option === name; })[0];
  }

  function score(model, option, d) {
    var s = option.scores[d];
    return s === null ? model.neutral : s;
  }

  var api = {
    round1: round1, totals: totals, rank: rank, recommend: recommend, withheld: withheld,
    toWin: toWin
  };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.VerdictWhatIf = api;

  if (typeof document === "undefined") return;

  // --- the page -----------------------------------------------------------------------
  var panel = document.getElementById("whatif");
  if (!panel || !panel.getAttribute("data-model")) return;
  var model = JSON.parse(panel.getAttribute("data-model"));
  var words = model.words;
  var sliders = panel.querySelectorAll("input[data-slider]");
  var numbers = panel.querySelectorAll("input[data-number]");
  var first = rank(model, initialWeights()).map(function (r) { return r.option; });
  panel.hidden = false;
  document.documentElement.classList.add("whatif-ready");

  var touched = Array.prototype.map.call(numbers, function () { return false; });

  // The run's own weights, exactly, until a person moves one: the page opens on the
  // decide stage's totals, not on ones recomputed from rounded percentages.
  function initialWeights() {
    return model.dimensions.map(function (d) { return d.weight * 100; });
  }
  function current() {
    var exact = initialWeights();
    return Array.prototype.map.call(numbers, function (n, d) {
      if (!touched[d]) return exact[d];
      var v = parseFloat(n.value);
      return isFinite(v) && v >= 0 ? Math.min(v, model.max_weight) : 0;
    });
  }
  function fmt(x) { return x.toFixed(1); }
  function say(selector, text) {
    var el = panel.querySelector(selector);
    if (el) { el.textContent = text; el.hidden = !text; }
  }

  function update() {
    var weights = current();
    var whole = weights.reduce(function (a, w) { return a + w; }, 0);
    var ranking = rank(model, weights);
    var rec = recommend(model, ranking, weights);
    drawChart(ranking, rec.option);
    drawShares(ranking);
    drawMatrix(ranking, rec.option);
    drawRecommendation(rec);
    panel.querySelectorAll("[data-share]").forEach(function (el, d) {
      el.textContent = whole ? Math.round(100 * weights[d] / whole) + "%" : "–";
    });
    var order = ranking.map(function (r) { return r.option; });
    var changed = order.join("\n") !== first.join("\n");
    panel.classList.toggle("is-changed", changed);
    var positive = weights.every(function (w) { return w > 0; });
    // "now leads" only when another option leads; a swap further down says only that.
    say("[data-ranking-note]", !whole ? words.no_weight
      : order[0] !== first[0] ? words.changed.replace("{option}", order[0])
      : changed ? words.reordered.replace("{option}", order[0])
      : words.unchanged);
    var win = whole ? toWin(model, weights, ranking) : null;
    say("[data-to-win]", win ? words.to_win
      .replace("{option}", win.option).replace("{over}", win.over)
      .replace("{dimension}", win.dimension)
      .replace("{from}", String(Math.round(win.from))).replace("{to}", String(win.to)) : "");
    say("[data-weight-note]", positive ? "" : words.no_weight);
    panel.querySelector("[data-save]").disabled = !positive;
  }

  function drawChart(ranking, recommended) {
    var chart = model.chart;
    ranking.forEach(function (r, i) {
      var bar = document.querySelector('.chart-bar[data-option="' + cssEscape(r.option) + '"]');
      if (!bar) return;
      var y = chart.top + i * chart.row;
      var width = r.total === null ? 0 : Math.round(chart.span * r.total / 100 * 10) / 10;
      bar.classList.toggle("is-top", r.option === recommended);
      var rect = bar.querySelector("rect");
      if (rect) { rect.setAttribute("y", y); rect.setAttribute("width", width); }
      bar.querySelectorAll("text").forEach(function (text) { text.setAttribute("y", y + 15.5); });
      var value = bar.querySelector("text.value:not(.none)");
      if (value) {
        value.textContent = fmt(r.total);
        value.setAttribute("x", Math.round((chart.left + width + 6) * 10) / 10);
      }
      var title = bar.querySelector("title");
      if (title && r.total !== null) title.textContent = r.option + ": " + fmt(r.total);
    });
  }

  function drawShares(ranking) {
    var list = document.querySelector("ol.shares");
    if (!list) return;
    ranking.forEach(function (r) {
      var item = list.querySelector('li[data-option="' + cssEscape(r.option) + '"]');
      if (!item) return;
      var total = item.querySelector("[data-total]");
      if (total && r.total !== null) total.textContent = fmt(r.total);
      var evidence = item.querySelector("[data-evidence]");
      if (evidence && r.total !== null) {
        evidence.textContent = words.evidence.replace("{covered}", String(r.evidence))
          .replace("{dimensions}", String(model.dimensions.length))
          .replace("{share}", percent(r.evidenceShare));
      }
      list.appendChild(item);  // in ranking order
    });
  }

  // The score matrix's weighted totals, its ranks and its order follow the weights too; a
  // cell's open workings (matrix.js puts them in the row below) move with their row.
  function drawMatrix(ranking, recommended) {
    var body = document.querySelector("table.matrix tbody");
    if (!body) return;
    ranking.forEach(function (r, i) {
      var row = body.querySelector('tr[data-option="' + cssEscape(r.option) + '"]');
      if (!row) return;
      var detail = row.nextElementSibling;
      var cell = row.querySelector("[data-matrix-total]");
      if (cell && r.total !== null) {
        var strong = cell.querySelector("strong");
        if (strong) strong.textContent = fmt(r.total);
        cell.className = cell.className.replace(/\bheat-\d\b/, "heat-" + Math.min(9, Math.floor(r.total / 10)));
      }
      var rankNo = row.querySelector(".rank");
      if (rankNo) rankNo.textContent = String(i + 1);
      row.classList.toggle("is-top", r.option === recommended);
      body.appendChild(row);
      if (detail && detail.classList.contains("cell-detail")) body.appendChild(detail);
    });
  }

  function drawRecommendation(rec) {
    var shown = document.querySelector(".rec-option");
    if (!shown) return;
    shown.textContent = rec.option || words.no_rec;
    shown.classList.toggle("rec-none", !rec.option);
    say("[data-rec-note]", rec.option === model.recommended ? "" : rec.option
      ? words.rec_changed.replace("{option}", rec.option)
      : rec.why === "single_site" ? words.rec_single_site.replace("{option}", rec.top)
      : rec.why === "thin_evidence" ? words.rec_thin.replace("{option}", rec.top)
      : rec.why === "unshared_lead"
        ? words.rec_unshared.replace("{option}", rec.top).replace("{over}", rec.over)
      : words.rec_none);
  }

  // decisions.scoring.totals.percent: 100 only when it is all, 0 only when it is none.
  function percent(share) {
    var value = Math.round(share);
    if (share < 100 && value >= 100) return "99";
    if (share > 0 && value <= 0) return "1";
    return String(value);
  }

  function cssEscape(s) { return window.CSS && CSS.escape ? CSS.escape(s) : s.replace(/"/g, '\\"'); }

  sliders.forEach(function (slider, d) {
    slider.addEventListener("input", function () {
      touched[d] = true;
      numbers[d].value = slider.value;
      update();
    });
  });
  numbers.forEach(function (number, d) {
    number.addEventListener("input", function () {
      touched[d] = true;
      var v = parseFloat(number.value);
      if (isFinite(v)) sliders[d].value = String(Math.min(Math.max(v, 0), model.max_weight));
      update();
    });
  });
  panel.querySelector("[data-reset]").addEventListener("click", function () {
    numbers.forEach(function (n, d) {
      n.value = n.defaultValue;
      sliders[d].value = n.defaultValue;
      touched[d] = false;
    });
    update();
  });
  update();
})(this);
