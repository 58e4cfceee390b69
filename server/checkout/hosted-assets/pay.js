// The hosted payment form: the chosen method names the button ("Pay EUR 42.00", "Continue to
// iDEAL"); a card's fields are checked before anything is sent: Luhn, expiry, CVC length.
// The server checks everything again; this only tells the shopper early, next to the field.
(function () {
  'use strict';
  var form = document.getElementById('pay-form');
  if (!form) return;
  form.noValidate = true;
  var button = form.querySelector('button[type="submit"]');

  // The card is chosen when it is the checked method (or the form has no choice of method).
  var chosenMethod = function () {
    return form.querySelector('input[name="method"]:checked');
  };
  var cardChosen = function () {
    var chosen = chosenMethod();
    return !chosen || chosen.value === 'scheme';
  };
  Array.prototype.forEach.call(form.querySelectorAll('input[name="method"]'), function (radio) {
    radio.addEventListener('change', function () {
      if (radio.checked && button) button.textContent = radio.getAttribute('data-submit') || button.textContent;
    });
  });

  var digits = function (value) {
    return value.replace(/[\s-]/g, '');
  };
  var luhn = function (number) {
    var sum = 0;
    for (var i = 0; i < number.length; i++) {
      var d = Number(number.charAt(number.length - 1 - i));
      if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    return sum % 10 === 0;
  };
  var isAmex = function () {
    return /^3[47]/.test(digits(form.elements.number.value));
  };

  var checks = {
    number: function (value) {
      var n = digits(value);
      if (n === '') return 'Enter the card number.';
      if (!/^\d{12,19}$/.test(n)) return 'A card number has 12 to 19 digits.';
      if (!luhn(n)) return 'This card number is not valid: check the digits.';
      return '';
    },
    expiryMonth: function (value) {
      if (!/^\d{1,2}$/.test(value) || Number(value) < 1 || Number(value) > 12) return 'Enter the month as MM (01 to 12).';
      return '';
    },
    expiryYear: function (value) {
      if (!/^\d{4}$/.test(value)) return 'Enter the year as YYYY.';
      var month = Number(form.elements.expiryMonth.value);
      var now = new Date();
      var year = Number(value);
      if (year < now.getFullYear() || (year === now.getFullYear() && month >= 1 && month < now.getMonth() + 1)) return 'This card has expired.';
      return '';
    },
    cvc: function (value) {
      var length = isAmex() ? 4 : 3;
      if (!new RegExp('^\\d{' + length + '}$').test(value)) return 'The security code has ' + length + ' digits.';
      return '';
    },
    holderName: function (value) {
      return value.trim() === '' ? 'Enter the name on the card.' : '';
    },
  };

  var check = function (name) {
    var input = form.elements[name];
    var message = checks[name](input.value.trim());
    var slot = document.getElementById(name + '-error');
    input.setAttribute('aria-invalid', message ? 'true' : 'false');
    if (slot) slot.textContent = message;
    return message === '';
  };

  Object.keys(checks).forEach(function (name) {
    var input = form.elements[name];
    if (!input) return;
    input.addEventListener('blur', function () {
      if (input.value !== '') check(name);
    });
    input.addEventListener('input', function () {
      if (input.getAttribute('aria-invalid') === 'true') check(name);
    });
  });

  form.addEventListener('submit', function (event) {
    var firstInvalid = null;
    if (cardChosen()) {
      Object.keys(checks).forEach(function (name) {
        if (form.elements[name] && !check(name) && !firstInvalid) firstInvalid = form.elements[name];
      });
    }
    if (firstInvalid) {
      event.preventDefault();
      firstInvalid.focus();
      return;
    }
    if (button) {
      button.disabled = true;
      button.textContent = cardChosen() ? 'Processing…' : 'Redirecting…';
    }
  });

  // Back from the method's page (a page restored from the back-forward cache): the form works again.
  window.addEventListener('pageshow', function (event) {
    var chosen = chosenMethod();
    if (!event.persisted || !button) return;
    button.disabled = false;
    button.textContent = (chosen && chosen.getAttribute('data-submit')) || button.textContent;
  });
})();
