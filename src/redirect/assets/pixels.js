// Starts the script-based pixels of a redirect page. The page passes their ids in data attributes, so that the
// Content-Security-Policy can stay free of inline scripts.
(function () {
  var script = document.currentScript;
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
