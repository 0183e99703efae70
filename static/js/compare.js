// Follows a comparison of systems running in the background: polls its JSON status, moves
// the progress bar, and reloads the page for the results once it is done.
(function () {
  "use strict";
  var box = document.getElementById("compare-progress");
  if (!box) { return; }
  var bar = box.querySelector(".progress-bar");
  // The bar's width from its data (the page's CSP allows no inline style attribute).
  bar.style.width = bar.dataset.progress + "%";
  if (box.dataset.finished === "true") { return; }
  var meter = box.querySelector(".progress");
  var BADGES = { done: "text-bg-success", failed: "text-bg-danger" };

  function field(name) { return box.querySelector("[data-field=" + name + "]"); }

  function show(run) {
    bar.style.width = run.progress + "%";
    bar.textContent = run.progress + "%";
    meter.setAttribute("aria-valuenow", run.progress);
    // The status line is a live region: written only when it changes, so that a screen
    // reader announces the news, not the same words every second.
    if (field("message").textContent !== run.message) { field("message").textContent = run.message; }
    if (field("status").textContent.trim() !== run.status_display) {
      var badge = document.createElement("span");
      badge.className = "badge " + (BADGES[run.status] || "text-bg-warning");
      badge.textContent = run.status_display;
      field("status").replaceChildren(badge);
    }
    field("stalled").classList.toggle("d-none", !run.stalled);
    if (run.finished) {
      bar.classList.remove("progress-bar-striped", "progress-bar-animated");
      bar.classList.add(run.status === "failed" ? "bg-danger" : "bg-success");
      if (run.status === "done") { window.location.reload(); }
    }
  }

  function poll() {
    fetch(box.dataset.statusUrl, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.json();
      })
      .then(function (run) {
        show(run);
        if (!run.finished) { window.setTimeout(poll, 1000); }
      })
      .catch(function () { window.setTimeout(poll, 5000); });  // a blip: try again, slower
  }
  window.setTimeout(poll, 500);
})();
