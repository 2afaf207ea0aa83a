// Kindred admin: shows every <time datetime> in the browser's own time zone (the server
// renders UTC); the UTC value stays in the tooltip. No other script runs on these pages.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "local time";
  document.querySelectorAll("time[datetime]").forEach(function (element) {
    var date = new Date(element.getAttribute("datetime"));
    if (isNaN(date.getTime())) return;
    element.title = element.getAttribute("datetime") + " (UTC)";
    element.textContent = format.format(date);
    element.dataset.zone = zone;
  });
});
