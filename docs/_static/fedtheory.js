// Paper pages: a link to a claim, a figure or the ledger opens the collapsed block it points into.
(function () {
  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (!el) return;
    var inner = el.tagName === 'DETAILS' ? el : el.querySelector(':scope > details');
    if (inner) inner.open = true;
    for (var p = el.parentElement; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') p.open = true;
    }
    el.scrollIntoView();
  }
  window.addEventListener('hashchange', reveal);
  document.addEventListener('DOMContentLoaded', reveal);
})();
