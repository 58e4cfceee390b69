// The issuer's 3D Secure 2 pages, framed by the merchant's checkout (server/checkout/payments/three-ds2-pages.ts).
(function () {
  'use strict';
  // The 3DS method page and the challenge's answer go on to the notification page at once; the
  // button is there for a browser without scripts.
  var onward = document.querySelector('form[data-auto-submit]');
  if (onward) {
    onward.submit();
    return;
  }
  // The notification page: what the library's page waits for, a JSON string from this origin, to
  // the page that started the step (its origin, when the server knew it).
  var result = document.getElementById('three-ds2-result');
  if (!result || window.parent === window) return;
  window.parent.postMessage(result.getAttribute('data-message') || '', result.getAttribute('data-target-origin') || '*');
})();
