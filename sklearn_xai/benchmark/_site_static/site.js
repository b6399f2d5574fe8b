/* sklearn_xai results site: sorting and filtering of the page's table.
   The table is complete without this script.  State lives in the URL hash:
   #sort=KEY&dir=asc|desc&filter=COLUMN:VALUE&filter=...  Labels reach the
   page only as text (textContent, option values, attribute comparisons),
   never as markup; the filter values come from the page's JSON data,
   read with JSON.parse. */
(function () {
  "use strict";
  var table = document.querySelector("table.sortable");
  var dataElement = document.getElementById("site-data");
  if (!table || !dataElement) {
    return;
  }
  var data = JSON.parse(dataElement.textContent);
  var filters = data.filters || {};
  var tbody = table.tBodies[0];
  var rows = Array.prototype.slice.call(tbody.rows);
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var state = {sort: null, dir: "asc", filter: {}};
  var selects = {};
  var count = document.createElement("p");
  count.className = "count";

  function decode(text) {
    try {
      return decodeURIComponent(text.replace(/\+/g, " "));
    } catch (e) {
      return null;
    }
  }

  function parse() {
    state = {sort: null, dir: "asc", filter: {}};
    window.location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      var i = part.indexOf("=");
      if (i < 0) {
        return;
      }
      var key = decode(part.slice(0, i));
      var value = decode(part.slice(i + 1));
      if (key === null || value === null) {
        return;
      }
      if (key === "sort") {
        state.sort = value;
      } else if (key === "dir") {
        state.dir = value === "desc" ? "desc" : "asc";
      } else if (key === "filter") {
        var j = value.indexOf(":");
        var column = value.slice(0, j);
        if (j > 0 && Object.prototype.hasOwnProperty.call(filters, column)) {
          state.filter[column] = value.slice(j + 1);
        }
      }
    });
  }

  function hash() {
    var parts = [];
    if (state.sort) {
      parts.push("sort=" + encodeURIComponent(state.sort));
      parts.push("dir=" + state.dir);
    }
    Object.keys(state.filter).forEach(function (column) {
      parts.push("filter=" + encodeURIComponent(column + ":" + state.filter[column]));
    });
    return parts.join("&");
  }

  function sortKey(row, column) {
    var cell = row.cells[column];
    var value = cell.getAttribute("data-sort");
    return value === null ? cell.textContent : value;
  }

  function apply() {
    parse();
    var column = -1;
    heads.forEach(function (th, i) {
      th.removeAttribute("aria-sort");
      if (th.getAttribute("data-key") === state.sort) {
        column = i;
      }
    });
    var ordered = rows.slice();
    if (column >= 0) {
      var numeric = heads[column].getAttribute("data-type") === "number";
      ordered.sort(function (a, b) {
        var x = sortKey(a, column);
        var y = sortKey(b, column);
        var c;
        if (numeric) {
          x = parseFloat(x);
          y = parseFloat(y);
          if (isNaN(x) || isNaN(y)) {
            return (isNaN(x) ? 1 : 0) - (isNaN(y) ? 1 : 0);  // empty cells last
          }
          c = x - y;
        } else {
          c = x.localeCompare(y);
        }
        return state.dir === "desc" ? -c : c;
      });
      heads[column].setAttribute("aria-sort",
                                 state.dir === "desc" ? "descending" : "ascending");
    }
    var shown = 0;
    ordered.forEach(function (row) {
      var keep = Object.keys(state.filter).every(function (name) {
        return row.getAttribute("data-" + name) === state.filter[name];
      });
      row.hidden = !keep;
      shown += keep ? 1 : 0;
      tbody.appendChild(row);
    });
    Object.keys(selects).forEach(function (name) {
      selects[name].value = Object.prototype.hasOwnProperty.call(state.filter, name)
        ? state.filter[name] : "";
    });
    count.textContent = shown + " of " + rows.length + " rows shown";
  }

  function go() {
    var text = hash();
    if (("#" + text) === window.location.hash || (!text && !window.location.hash)) {
      apply();
    } else {
      window.location.hash = text;  // hashchange applies it
    }
  }

  var form = document.createElement("form");
  form.className = "filters";
  Object.keys(filters).forEach(function (name) {
    var label = document.createElement("label");
    label.textContent = name + " ";
    var select = document.createElement("select");
    select.name = name;
    var all = document.createElement("option");
    all.value = "";
    all.textContent = "all";
    select.appendChild(all);
    filters[name].forEach(function (value) {
      var option = document.createElement("option");
      option.value = value;
      option.textContent = value;
      select.appendChild(option);
    });
    select.addEventListener("change", function () {
      parse();
      if (select.value === "") {
        delete state.filter[name];
      } else {
        state.filter[name] = select.value;
      }
      go();
    });
    selects[name] = select;
    label.appendChild(select);
    form.appendChild(label);
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
  });
  var holder = table.parentNode;
  holder.parentNode.insertBefore(form, holder);
  holder.parentNode.insertBefore(count, holder);

  heads.forEach(function (th) {
    if (!th.getAttribute("data-key")) {
      return;
    }
    th.tabIndex = 0;
    th.classList.add("sort");
    function sort() {
      parse();
      var key = th.getAttribute("data-key");
      state.dir = state.sort === key && state.dir === "asc" ? "desc" : "asc";
      state.sort = key;
      go();
    }
    th.addEventListener("click", sort);
    th.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        sort();
      }
    });
  });
  window.addEventListener("hashchange", apply);
  apply();
  document.documentElement.setAttribute("data-site-ready", "1");
}());
