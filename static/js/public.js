// Public pages: the calculator's "Add a game" without a reload.
// It works without this script: "Add a game"
// submits the form, which comes back with one more row.
document.addEventListener("click", function (event) {
  var add = event.target.closest("[data-add-row]");
  if (!add) return;
  var template = document.getElementById("game-row-template");
  var total = document.getElementById("id_g-TOTAL_FORMS");
  if (!template || !total) return;
  event.preventDefault();
  var index = parseInt(total.value, 10);
  var html = template.innerHTML.replace(/__prefix__/g, String(index));
  document.getElementById("game-rows").insertAdjacentHTML("beforeend", html);
  total.value = String(index + 1);
  var first = document.getElementById("id_g-" + index + "-opponent");
  if (first) first.focus();
});
// The list's Print button opens the whole list (not one page of it) with #print.
if (window.location.hash === "#print") {
  window.addEventListener("load", function () {
    if (window.history.replaceState) {
      window.history.replaceState(null, "", window.location.pathname + window.location.search);
    }
    window.print();
  });
}

// The browser's own Print (Ctrl+P) on a page of a list too long for the page to carry
// whole (ratings/pages/list_print.py): the whole list, the Print button's page, is loaded
// as printing starts and printed in place of the page's rows; the screen gets its page
// back after. Loaded synchronously: the browser lays the sheets out as soon as this
// returns. Without this script the sheet says which members it holds (the note).
(function () {
  var note = document.querySelector("[data-print-whole]");
  if (!note) return;
  var table = document.querySelector("table.rating-list");
  var body = table && table.tBodies[table.tBodies.length - 1];
  if (!body) return;
  var whole = null;
  window.addEventListener("beforeprint", function () {
    if (!whole) {
      try {
        var request = new XMLHttpRequest();
        request.open("GET", new URL(note.getAttribute("data-print-whole"), window.location.href), false);
        request.send();
        if (request.status !== 200) return;
        var page = new DOMParser().parseFromString(request.responseText, "text/html");
        var found = page.querySelector("table.rating-list");
        if (!found || !found.tBodies.length) return;
        whole = document.importNode(found.tBodies[found.tBodies.length - 1], true);
      } catch (error) {
        return;  // the page as it is, its note saying so
      }
    }
    body.replaceWith(whole);
    note.classList.remove("d-print-block");
  });
  window.addEventListener("afterprint", function () {
    if (whole && whole.isConnected) whole.replaceWith(body);
    note.classList.add("d-print-block");
  });
})();

// The calculator's member boxes: typing two letters of a name (or a number) offers up to
// 20 members one may pick, as "Name (number)", with their rating. Without this script the
// boxes still take a member number or an exact name, which the server looks up.
(function () {
  var form = document.querySelector("form[data-member-search-url]");
  var options = document.getElementById("member-options");
  if (!form || !options || !window.fetch) return;
  var url = form.getAttribute("data-member-search-url");
  var timer = null;
  var pending = null;
  var lastQuery = "";

  function fill(members) {
    options.textContent = "";
    members.forEach(function (member) {
      var option = document.createElement("option");
      option.value = member.label;
      // The browser shows the value (name and number) with this beside it.
      option.label = member.rating ? "rated " + member.rating : "";
      option.textContent = option.label;
      options.appendChild(option);
    });
  }

  function search(input) {
    var query = input.value.trim();
    if (query === lastQuery) return;
    lastQuery = query;
    if (query.length < 2 || /\([\w.-]+\)$/.test(query)) {
      fill([]);
      return;
    }
    if (pending) pending.abort();
    pending = window.AbortController ? new AbortController() : null;
    fetch(url + "?q=" + encodeURIComponent(query), {
      headers: { Accept: "application/json" },
      signal: pending ? pending.signal : undefined,
    })
      .then(function (response) { return response.ok ? response.json() : { members: [] }; })
      .then(function (data) { if (input.value.trim() === query) fill(data.members); })
      .catch(function () {});
  }

  form.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("[data-member-search]")) return;
    input.setAttribute("list", "member-options");
    window.clearTimeout(timer);
    timer = window.setTimeout(function () { search(input); }, 150);
  });
  form.addEventListener("focusin", function (event) {
    var input = event.target;
    if (input.matches && input.matches("[data-member-search]")) {
      input.setAttribute("list", "member-options");
      lastQuery = "";
      fill([]);
    }
  });
})();
