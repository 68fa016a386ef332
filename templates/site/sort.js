/* handrec site: sort a table by a column when its header button is pressed (tables with
   class "sortable").  The pages work without this script: the tables are in their order. */
(function () {
  "use strict";
  function key(cell) {
    var raw = cell.getAttribute("data-sort");
    var text = (raw !== null ? raw : cell.textContent).trim().replace(/\u2212/g, "-");
    var n = parseFloat(text.replace(/^\+/, ""));
    return { num: /^[+-]?\d+(\.\d+)?/.test(text) ? n : NaN, text: text.toLowerCase() };
  }
  function compare(a, b) {
    var an = !isNaN(a.num), bn = !isNaN(b.num);
    if (an && bn) return a.num - b.num;
    if (an !== bn) return an ? -1 : 1;
    return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
  }
  function sortBy(table, index, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
    var keyed = rows.map(function (row, i) {
      return { row: row, key: key(row.cells[index] || row), i: i };
    });
    keyed.sort(function (a, b) { return dir * compare(a.key, b.key) || a.i - b.i; });
    keyed.forEach(function (k) { body.appendChild(k.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
  }
  function enhance(table) {
    if (!table.tHead || !table.tBodies.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      if (!th.textContent.trim() || th.colSpan > 1) return;
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) button.appendChild(th.firstChild);
      th.appendChild(button);
      button.addEventListener("click", function () { sortBy(table, index, th); });
    });
    table.classList.add("sort-ready");
  }
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), enhance);
  });
})();
