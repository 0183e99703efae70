// Follows a long members file the worker reads or saves: polls its JSON status, moves the
// bar, and reloads the page when the step ends (the preview, or what was saved, is then
// the page's). Without JavaScript the page reloads itself (a <noscript> refresh).
(function () {
  "use strict";
  var box = document.getElementById("import-progress");
  if (!box) { return; }
  var bar = box.querySelector(".progress-bar");
  var meter = box.querySelector(".progress");
  // The bar's width from its data (the page's CSP allows no inline style attribute).
  bar.style.width = bar.dataset.progress + "%";

  function field(name) { return box.querySelector("[data-field=" + name + "]"); }

  function show(job) {
    bar.style.width = job.progress + "%";
    bar.textContent = job.progress + "%";
    meter.setAttribute("aria-valuenow", job.progress);
    meter.setAttribute("aria-label", job.status_display);
    // The status line is a live region: written only when it changes.
    if (field("status").textContent !== job.status_display) { field("status").textContent = job.status_display; }
    if (field("message").textContent !== job.message) { field("message").textContent = job.message; }
    field("quiet").classList.toggle("d-none", !job.quiet);
  }

  function poll() {
    fetch(box.dataset.statusUrl, { headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(response.status); }
        return response.json();
      })
      .then(function (job) {
        show(job);
        if (job.finished) { window.location.reload(); } else { window.setTimeout(poll, 1000); }
      })
      .catch(function () { window.setTimeout(poll, 5000); });  // a blip: try again, slower
  }
  window.setTimeout(poll, 500);
})();
