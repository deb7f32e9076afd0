// The redirect page's own script, loaded twice with different data attributes, so that the Content-Security-Policy
// can stay free of inline scripts: `data-pixels` starts the pixels as phpShort's templates do, each with its
// vendor's own base code; `data-forward` forwards the visitor once they have loaded.
(function (w, d) {
  var forward = d.currentScript.getAttribute('data-forward');
  if (forward) {
    var gone = false;
    var go = function () {
      if (gone) return;
      gone = true;
      w.location.replace(forward);
    };
    // Once the pixels have loaded (the load event waits for them), or after a second and a half at most.
    w.addEventListener('load', function () {
      setTimeout(go, 100);
    });
    setTimeout(go, 1500);
  }
  var pixels = JSON.parse(d.currentScript.getAttribute('data-pixels') || '[]');

  function ids(type) {
    return pixels
      .filter(function (pixel) {
        return pixel.type === type;
      })
      .map(function (pixel) {
        return pixel.value;
      });
  }

  function load(src, onload) {
    var script = d.createElement('script');
    script.async = true;
    script.src = src;
    if (onload) script.onload = onload;
    d.head.appendChild(script);
  }

  // Google Analytics and Google Ads: one gtag for both; an Ads value is the bare number.
  var gtagIds = ids('google-analytics').concat(
    ids('google-ads').map(function (id) {
      return 'AW-' + id;
    }),
  );
  if (gtagIds.length > 0) {
    w.dataLayer = w.dataLayer || [];
    w.gtag = function () {
      w.dataLayer.push(arguments);
    };
    w.gtag('js', new Date());
    gtagIds.forEach(function (id) {
      w.gtag('config', id);
    });
    load('https://www.googletagmanager.com/gtag/js?id=' + encodeURIComponent(gtagIds[0]));
  }

  ids('google-tag-manager').forEach(function (id) {
    w.dataLayer = w.dataLayer || [];
    w.dataLayer.push({ 'gtm.start': new Date().getTime(), event: 'gtm.js' });
    load('https://www.googletagmanager.com/gtm.js?id=' + encodeURIComponent(id));
  });

  var facebook = ids('facebook');
  if (facebook.length > 0) {
    if (!w.fbq) {
      var fbq = (w.fbq = function () {
        if (fbq.callMethod) fbq.callMethod.apply(fbq, arguments);
        else fbq.queue.push(arguments);
      });
      if (!w._fbq) w._fbq = fbq;
      fbq.push = fbq;
      fbq.loaded = true;
      fbq.version = '2.0';
      fbq.queue = [];
      load('https://connect.facebook.net/en_US/fbevents.js');
    }
    facebook.forEach(function (id) {
      w.fbq('init', id);
    });
    w.fbq('track', 'PageView');
  }

  ids('bing').forEach(function (id) {
    w.uetq = w.uetq || [];
    load('https://bat.bing.com/bat.js', function () {
      var options = { ti: id, enableAutoSpaTracking: true };
      options.q = w.uetq;
      w.uetq = new w.UET(options);
      w.uetq.push('pageLoad');
    });
  });

  var linkedin = ids('linkedin');
  if (linkedin.length > 0) {
    w._linkedin_partner_id = linkedin[0];
    w._linkedin_data_partner_ids = (w._linkedin_data_partner_ids || []).concat(linkedin);
    if (!w.lintrk) {
      w.lintrk = function (a, b) {
        w.lintrk.q.push([a, b]);
      };
      w.lintrk.q = [];
    }
    load('https://snap.licdn.com/li.lms-analytics/insight.min.js');
  }

  var pinterest = ids('pinterest');
  if (pinterest.length > 0) {
    if (!w.pintrk) {
      w.pintrk = function () {
        w.pintrk.queue.push(Array.prototype.slice.call(arguments));
      };
      w.pintrk.queue = [];
      w.pintrk.version = '3.0';
      load('https://s.pinimg.com/ct/core.js');
    }
    pinterest.forEach(function (id) {
      w.pintrk('load', id);
    });
    w.pintrk('page');
  }

  var quora = ids('quora');
  if (quora.length > 0) {
    if (!w.qp) {
      var qp = (w.qp = function () {
        if (qp.qp) qp.qp.apply(qp, arguments);
        else qp.queue.push(arguments);
      });
      qp.queue = [];
      load('https://a.quora.com/qevents.js');
    }
    quora.forEach(function (id) {
      w.qp('init', id);
    });
    w.qp('track', 'ViewContent');
  }

  var x = ids('x');
  if (x.length > 0) {
    if (!w.twq) {
      var twq = (w.twq = function () {
        if (twq.exe) twq.exe.apply(twq, arguments);
        else twq.queue.push(arguments);
      });
      twq.version = '1.1';
      twq.queue = [];
      load('https://static.ads-twitter.com/uwt.js');
    }
    x.forEach(function (id) {
      w.twq('config', id);
    });
  }

  // AdRoll: the value is ADVID-PIXID.
  var adroll = ids('adroll');
  if (adroll.length > 0) {
    var parts = adroll[0].split('-');
    w.adroll_adv_id = parts[0];
    w.adroll_pix_id = parts[1] || '';
    w.adroll_version = '2.0';
    w.__adroll_loaded = true;
    w.adroll = w.adroll || [];
    w.adroll.f = ['setProperties', 'identify', 'track'];
    w.adroll.f.forEach(function (name) {
      w.adroll[name] =
        w.adroll[name] ||
        function () {
          w.adroll.push([name, arguments]);
        };
    });
    load('https://s.adroll.com/j/' + encodeURIComponent(parts[0]) + '/roundtrip.js');
    w.adroll.track('pageView');
  }
})(window, document);
