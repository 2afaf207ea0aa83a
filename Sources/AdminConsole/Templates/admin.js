// Kindred admin: the server renders every date in the operator's time zone (chosen on the
// Operators page); this puts the UTC value of each <time datetime> in its tooltip. No other
// script runs on these pages.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  document.querySelectorAll("time[datetime]").forEach(function (element) {
    element.title = element.getAttribute("datetime") + " (UTC)";
  });
});
