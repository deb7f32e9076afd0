// Starts the script-based pixels of a redirect page, and forwards the visitor once they have loaded. The page
// passes ids and the destination in data attributes, so that the Content-Security-Policy can stay free of inline
// scripts.
(function () {
  var script = document.currentScript;
  var forward = script.getAttribute('data-forward');
  if (forward) {
    var gone = false;
    var go = function () {
      if (gone) return;
      gone = true;
      window.location.replace(forward);
    };
    // Once the pixels have loaded (the load event waits for them), or after a second and a half at most.
    window.addEventListener('load', function () {
      setTimeout(go, 100);
    });
    setTimeout(go, 1500);
  }
  var gtagIds = (script.getAttribute('data-gtag') || '').split(' ').filter(Boolean);
  if (gtagIds.length > 0) {
    window.dataLayer = window.dataLayer || [];
    window.gtag = function () {
      window.dataLayer.push(arguments);
    };
    window.gtag('js', new Date());
    gtagIds.forEach(function (id) {
      window.gtag('config', id);
    });
  }
  var adroll = (script.getAttribute('data-adroll') || '').split('/');
  if (adroll[0]) {
    window.adroll_adv_id = adroll[0];
    window.adroll_pix_id = adroll[1] || adroll[0];
    window.adroll_version = '2.0';
  }
})();
