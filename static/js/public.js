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
