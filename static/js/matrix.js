// The score matrix: an open cell shows its workings in a row of their own under its
// option's row, so the other cells of that row keep their size. One cell is open at a time;
// Escape closes it. On a narrow screen, where each option is a stack of cells, the workings
// open in place. Without this script a cell simply grows to show them.
(function () {
  "use strict";
  var table = document.querySelector("table.matrix");
  if (!table || !table.tHead) return;
  var columns = table.tHead.rows[0].cells.length;
  var open = null; // the <details> whose workings are out in a row of their own

  function body(details) { return document.getElementById(details.id + "-body"); }
  function inTable(row) { return getComputedStyle(row).display === "table-row"; }

  function putBack(details) {
    var detailRow = document.getElementById(details.id + "-row");
    if (detailRow) {
      details.appendChild(body(details));
      detailRow.remove();
    }
    details.closest("td").classList.remove("is-open");
    details.querySelector("summary").removeAttribute("aria-controls");
    if (open === details) open = null;
  }

  function moveOut(details) {
    var row = details.closest("tr");
    var detailRow = document.createElement("tr");
    var cell = document.createElement("td");
    detailRow.className = "cell-detail";
    detailRow.id = details.id + "-row";
    cell.colSpan = columns;
    cell.appendChild(body(details));
    detailRow.appendChild(cell);
    row.parentNode.insertBefore(detailRow, row.nextSibling);
    details.closest("td").classList.add("is-open");
    details.querySelector("summary").setAttribute("aria-controls", details.id + "-body");
    open = details;
  }

  function place(details) {
    if (!details.open) return putBack(details);
    if (open && open !== details) open.open = false; // its toggle event puts it back
    var out = !!document.getElementById(details.id + "-row");
    if (inTable(details.closest("tr")) !== out) {
      if (out) putBack(details);
      else moveOut(details);
    }
  }

  table.querySelectorAll("td > details").forEach(function (details) {
    var workings = details.querySelector(".cell-body");
    if (workings) workings.id = details.id + "-body";
  });
  // "toggle" does not bubble, so listen for it on its way down.
  table.addEventListener("toggle", function (event) {
    if (event.target.matches("td > details")) place(event.target);
  }, true);
  table.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !open) return;
    var details = open;
    details.open = false;
    details.querySelector("summary").focus();
  });
  // Crossing the narrow-screen breakpoint changes the layout: move open workings to match.
  window.addEventListener("resize", function () {
    if (open) place(open);
    else table.querySelectorAll("td > details[open]").forEach(place);
  });
})();
