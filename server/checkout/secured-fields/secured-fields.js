// One secured field of Adyen's web library (Card, Bancontact, Gift card), for the sandbox. The
// parent page posts a `config` message; this page renders the one input it asks for, checks what
// the shopper types and posts back JSON strings carrying `action` and the parent's `numKey`. A
// complete, valid value goes out as the sandbox's test value (`test_<value>`), which /payments
// reads; nothing is sent anywhere else.
(function securedField() {
  'use strict';

  var body = document.body;
  var kind = body.getAttribute('data-kind') === 'giftcard' ? 'giftcard' : 'card';
  var rules = JSON.parse(body.getAttribute('data-brands') || '[]');
  var today = sandboxToday(body.getAttribute('data-today'));
  var parentOrigin = parentOriginFromUrl();

  var CARD_NUMBER = 'encryptedCardNumber';
  var EXPIRY_DATE = 'encryptedExpiryDate';
  var EXPIRY_MONTH = 'encryptedExpiryMonth';
  var EXPIRY_YEAR = 'encryptedExpiryYear';
  var SECURITY_CODE = 'encryptedSecurityCode';
  var PASSWORD = 'encryptedPassword';

  // The CVC as card schemes define it: four digits on the front for Amex, none for Bancontact,
  // optional where the scheme does not require one.
  var CVC_POLICY = { bcmc: 'hidden', maestro: 'optional', maestrouk: 'optional', uatp: 'optional' };
  var CVC_TEXT = { amex: 'CID', visa: 'CVV', mc: 'CVC', discover: 'CID', jcb: 'CAV', cup: 'CVN' };

  var config = null;
  var input = null;
  var state = { valid: false, brand: null, cvcPolicy: 'required', expiryDatePolicy: 'required', bin: '', binLookup: null, sent: '' };

  /** The shop's origin from `d` (btoa of it, not URL-encoded, so `+` stays as it is). */
  function parentOriginFromUrl() {
    var match = /[?&]d=([^&]*)/.exec(window.location.search);
    if (!match) return null;
    try {
      return atob(decodeURIComponent(match[1].replace(/\+/g, '%2B')));
    } catch (_) {
      return null;
    }
  }

  /** The first day of the sandbox's current month; the browser's own date when the server gave none. */
  function sandboxToday(day) {
    var date = day && /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(day + 'T00:00:00Z') : new Date();
    return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1 };
  }

  function post(message) {
    if (!config || !parentOrigin) return;
    message.fieldType = config.fieldType;
    message.numKey = config.numKey;
    window.parent.postMessage(JSON.stringify(message), parentOrigin);
  }

  /** A validation message: the field is not (or no longer) complete; `error` '' clears a shown error. */
  function invalid(action, error) {
    state.valid = false;
    state.sent = '';
    describeError(error);
    post({ action: action, error: error });
  }

  /** Sends the field's test values, once per value: the parent needs them again only when they change. */
  function encrypted(entries, extra) {
    var sent = JSON.stringify(entries);
    if (state.valid && state.sent === sent) return;
    state.valid = true;
    state.sent = sent;
    describeError('');
    var message = extra || {};
    message.action = 'encryption';
    message[config.fieldType] = entries;
    post(message);
  }

  /**
   * The error on the input itself, in the parent's translation, for screen readers inside the
   * frame; the parent shows it on the page.
   */
  function describeError(code) {
    var aria = (config.iframeUIConfig && config.iframeUIConfig.ariaConfig && config.iframeUIConfig.ariaConfig[config.fieldType]) || {};
    var errors = aria.error || {};
    input.setAttribute('aria-invalid', code ? 'true' : 'false');
    document.getElementById('error').textContent = code ? errors[code] || code : '';
  }

  var digitsOf = function (value) {
    return value.replace(/\D/g, '');
  };

  function passesLuhn(digits) {
    var sum = 0;
    for (var i = 0; i < digits.length; i++) {
      var d = digits.charCodeAt(digits.length - 1 - i) - 48;
      if (i % 2 === 1) {
        d *= 2;
        if (d > 9) d -= 9;
      }
      sum += d;
    }
    return digits.length > 0 && sum % 10 === 0;
  }

  /** How many leading digits a rule's prefix matches (0: none), as the server scores it. */
  function matchLength(digits, prefix) {
    if (typeof prefix === 'string') return digits.indexOf(prefix) === 0 ? prefix.length : 0;
    var width = String(prefix[0]).length;
    var head = Number(digits.slice(0, width));
    return digits.length >= width && head >= prefix[0] && head <= prefix[1] ? width : 0;
  }

  /** The best matching brand rule of the leading digits, among the brands the parent accepts if any match there. */
  function detectRule(digits) {
    var best = null;
    var bestScore = 0;
    var accepted = config.cardGroupTypes || [];
    rules.forEach(function (rule) {
      var score = 0;
      rule.prefixes.forEach(function (prefix) {
        score = Math.max(score, matchLength(digits, prefix));
      });
      // A brand the shop accepts wins a tie over one it does not.
      if (score > bestScore || (score === bestScore && score > 0 && accepted.indexOf(rule.brand) >= 0 && accepted.indexOf(best.brand) < 0)) {
        best = rule;
        bestScore = score;
      }
    });
    return best;
  }

  /** The `data-info` length of a gift card field, e.g. "15-32". */
  function extraLength(fallback) {
    try {
      var info = JSON.parse(config.extraFieldData || '{}');
      var parts = String(info.length || '')
        .split('-')
        .map(Number);
      if (parts.length === 2 && parts[0] > 0 && parts[1] >= parts[0]) return { min: parts[0], max: parts[1] };
    } catch (_) {
      // Not JSON: the default lengths hold.
    }
    return fallback;
  }

  // Card number ----------------------------------------------------------------------------------

  function numberLengths(rule) {
    if (state.binLookup && state.binLookup.panLength) return [state.binLookup.panLength];
    return rule ? rule.lengths : [12, 13, 14, 15, 16, 17, 18, 19];
  }

  function formatNumber(digits) {
    return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  }

  function announceBrand(rule) {
    var brand = rule ? rule.brand : null;
    // Single-brand fields (a stored card) have their brand from the parent; Bancontact may turn out a Visa.
    if (brand === state.brand || (config.txVariant !== 'card' && config.txVariant !== 'bcmc')) return;
    state.brand = brand;
    state.cvcPolicy = (brand && CVC_POLICY[brand]) || 'required';
    // The real page names the brand `card` until it knows one.
    post({
      action: 'brand',
      brand: brand || 'card',
      cvcPolicy: state.cvcPolicy,
      expiryDatePolicy: 'required',
      cvcText: (brand && CVC_TEXT[brand]) || 'Security code',
    });
  }

  /** The first digits for the BIN lookup: from six on, the parent asks the server about them; below, it resets. */
  function announceBin(digits) {
    var bin = digits.length >= 6 ? digits.slice(0, Math.min(digits.length, 8)) : '';
    if (bin === state.bin) return;
    var had = state.bin !== '';
    state.bin = bin;
    if (bin) post({ action: 'binValue', binValue: bin.slice(0, 6), encryptedBin: 'test_' + bin, uuid: requestId() });
    else if (had) {
      state.binLookup = null;
      post({ action: 'binValue', binValue: digits });
    }
  }

  function requestId() {
    if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    return String(Date.now()) + String(Math.random()).slice(2);
  }

  function checkCardNumber(final) {
    var digits = digitsOf(input.value);
    if (config.txVariant === 'giftcard' || kind === 'giftcard') return checkGiftCardNumber(digits, final);
    var rule = detectRule(digits);
    var lengths = numberLengths(rule);
    var max = Math.max.apply(null, lengths);
    if (digits.length > max) digits = digits.slice(0, max);
    var shown = formatNumber(digits);
    if (input.value !== shown) input.value = shown;
    announceBrand(digits.length > 0 ? rule : null);
    announceBin(digits);
    var luhn = !state.binLookup || state.binLookup.enableLuhnCheck !== false;
    var complete = lengths.indexOf(digits.length) >= 0;
    if (complete && (!luhn || passesLuhn(digits))) {
      encrypted([{ encryptedFieldName: CARD_NUMBER, blob: 'test_' + digits }], { endDigits: digits.slice(-4), issuerBin: digits.slice(0, 8) });
      return;
    }
    if (complete && (digits.length === max || final)) return invalid('luhnCheck', 'cc.num.902');
    invalid('numberKeyPressed', final && digits.length > 0 ? 'cc.num.901' : '');
  }

  function checkGiftCardNumber(digits, final) {
    var length = extraLength({ min: 15, max: 32 });
    if (digits.length > length.max) digits = digits.slice(0, length.max);
    var shown = formatNumber(digits);
    if (input.value !== shown) input.value = shown;
    if (digits.length >= length.min) {
      encrypted([{ encryptedFieldName: CARD_NUMBER, blob: 'test_' + digits }], { endDigits: digits.slice(-4) });
      return;
    }
    invalid('numberKeyPressed', final && digits.length > 0 ? 'cc.num.901' : '');
  }

  // Expiry date ----------------------------------------------------------------------------------

  /** The parent's `minimumExpiryDate` ('MM/YY' or 'MM/YYYY'), as a month count. */
  function minimumMonth() {
    var match = /^(\d{2})\/(\d{2}|\d{4})$/.exec(config.minimumExpiryDate || '');
    if (!match) return null;
    var year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
    return year * 12 + Number(match[1]);
  }

  /** The error code of a whole date, or '' when it may be used. */
  function dateError(month, year) {
    if (month < 1 || month > 12) return 'cc.dat.911';
    var months = year * 12 + month;
    if (months < today.year * 12 + today.month) return 'cc.dat.912';
    // Cards are issued for at most some twenty years; thirty leaves room.
    if (months > (today.year + 30) * 12 + today.month) return 'cc.dat.913';
    var minimum = minimumMonth();
    if (minimum !== null && months < minimum) return 'cc.dat.914';
    return '';
  }

  function checkExpiryDate(final) {
    var digits = digitsOf(input.value).slice(0, 4);
    // A first digit above 1 can only be a month of its own: 4 → 04.
    if (digits.length === 1 && Number(digits) > 1) digits = '0' + digits;
    // The slash comes with the second digit, and goes with it when the shopper deletes.
    var deleting = input.dataset.deleting === 'true';
    var shown = digits.length > 2 || (digits.length === 2 && !deleting) ? digits.slice(0, 2) + '/' + digits.slice(2) : digits;
    if (input.value !== shown) input.value = shown;
    if (state.expiryDatePolicy === 'hidden') return;
    if (digits.length < 4) return invalid('dateKeyPressed', final && digits.length > 0 ? 'cc.dat.911' : '');
    var month = Number(digits.slice(0, 2));
    var year = 2000 + Number(digits.slice(2));
    var error = dateError(month, year);
    if (error) return invalid('incorrectly filled field', error);
    var yearEntry = { encryptedFieldName: EXPIRY_YEAR, blob: 'test_' + year, type: 'year' };
    if (config.exposeExpiryDate) yearEntry.expiryDate = digits.slice(0, 2) + '/' + digits.slice(2);
    encrypted([{ encryptedFieldName: EXPIRY_MONTH, blob: 'test_' + digits.slice(0, 2), type: 'month' }, yearEntry], { type: 'year' });
  }

  function checkExpiryMonth(final) {
    var digits = digitsOf(input.value).slice(0, 2);
    if (digits.length === 1 && Number(digits) > 1) digits = '0' + digits;
    if (input.value !== digits) input.value = digits;
    var month = Number(digits);
    if (digits.length < 2) return invalid('dateKeyPressed', final && digits.length > 0 ? 'cc.mth.915' : '');
    if (month < 1 || month > 12) return invalid('incorrectly filled field', 'cc.mth.915');
    encrypted([{ encryptedFieldName: EXPIRY_MONTH, blob: 'test_' + digits }], { type: 'month' });
  }

  function checkExpiryYear(final) {
    var digits = digitsOf(input.value).slice(0, 2);
    if (input.value !== digits) input.value = digits;
    if (digits.length < 2) return invalid('dateKeyPressed', final && digits.length > 0 ? 'cc.yr.918' : '');
    var year = 2000 + Number(digits);
    if (year < today.year || year > today.year + 30) return invalid('incorrectly filled field', 'cc.yr.918');
    encrypted([{ encryptedFieldName: EXPIRY_YEAR, blob: 'test_' + year }], { type: 'year' });
  }

  // Security code, gift card PIN, password --------------------------------------------------------

  function securityCodeLength() {
    if (kind === 'giftcard' || config.txVariant === 'giftcard') return extraLength({ min: 3, max: 10 });
    var n = state.brand === 'amex' ? 4 : 3;
    return { min: n, max: n };
  }

  function checkSecurityCode(final) {
    var length = securityCodeLength();
    var digits = digitsOf(input.value).slice(0, length.max);
    if (input.value !== digits) input.value = digits;
    input.maxLength = length.max;
    var amex = state.brand === 'amex' ? '.amex' : '';
    if (digits.length >= length.min) {
      encrypted([{ encryptedFieldName: SECURITY_CODE, blob: 'test_' + digits }]);
      return;
    }
    // An empty code is the parent's to flag (it knows whether the brand needs one); a partial one is ours.
    var error = final && digits.length > 0 ? 'cc.cvc.921' + amex : '';
    invalid('cvcKeyPressed', error);
  }

  function checkPassword(final) {
    var digits = digitsOf(input.value).slice(0, 2);
    if (input.value !== digits) input.value = digits;
    if (digits.length === 2) {
      encrypted([{ encryptedFieldName: PASSWORD, blob: 'test_' + digits }]);
      return;
    }
    invalid('passwordKeyPressed', final && digits.length > 0 ? 'kcp.pwd.941' : '');
  }

  var CHECKS = {};
  CHECKS[CARD_NUMBER] = checkCardNumber;
  CHECKS[EXPIRY_DATE] = checkExpiryDate;
  CHECKS[EXPIRY_MONTH] = checkExpiryMonth;
  CHECKS[EXPIRY_YEAR] = checkExpiryYear;
  CHECKS[SECURITY_CODE] = checkSecurityCode;
  CHECKS[PASSWORD] = checkPassword;

  var AUTOCOMPLETE = {};
  AUTOCOMPLETE[CARD_NUMBER] = 'cc-number';
  AUTOCOMPLETE[EXPIRY_DATE] = 'cc-exp';
  AUTOCOMPLETE[EXPIRY_MONTH] = 'cc-exp-month';
  AUTOCOMPLETE[EXPIRY_YEAR] = 'cc-exp-year';
  AUTOCOMPLETE[SECURITY_CODE] = 'cc-csc';
  AUTOCOMPLETE[PASSWORD] = 'off';

  var DEFAULT_LABEL = {};
  DEFAULT_LABEL[CARD_NUMBER] = kind === 'giftcard' ? 'Gift card number' : 'Card number';
  DEFAULT_LABEL[EXPIRY_DATE] = 'Expiry date';
  DEFAULT_LABEL[EXPIRY_MONTH] = 'Expiry month';
  DEFAULT_LABEL[EXPIRY_YEAR] = 'Expiry year';
  DEFAULT_LABEL[SECURITY_CODE] = kind === 'giftcard' ? 'PIN' : 'Security code';
  DEFAULT_LABEL[PASSWORD] = 'First two digits of card password';

  // Rendering ------------------------------------------------------------------------------------

  /** The label, title and placeholder the parent sent in the shopper's language, else ours in English. */
  function texts(fieldType) {
    var ui = config.iframeUIConfig || {};
    var aria = (ui.ariaConfig && ui.ariaConfig[fieldType]) || {};
    var placeholders = ui.placeholders || {};
    var placeholder = placeholders[fieldType];
    if (fieldType === SECURITY_CODE && placeholder === undefined) {
      placeholder = placeholders[state.brand === 'amex' ? 'encryptedSecurityCode4digits' : 'encryptedSecurityCode3digits'];
    }
    return {
      lang: (ui.ariaConfig && ui.ariaConfig.lang) || 'en-US',
      label: aria.label || DEFAULT_LABEL[fieldType],
      title: aria.iframeTitle || aria.label || DEFAULT_LABEL[fieldType],
      placeholder: typeof placeholder === 'string' ? placeholder : '',
    };
  }

  /** The parent's `styles` option (base, placeholder), as CSS properties set through the CSSOM. */
  function applyStyles(styles) {
    if (!styles || !input) return;
    var base = styles.base || {};
    Object.keys(base).forEach(function (property) {
      if (typeof base[property] === 'string' && /^[A-Za-z-]+$/.test(property)) input.style[property] = base[property];
    });
  }

  function render() {
    var fieldType = config.fieldType;
    var text = texts(fieldType);
    document.documentElement.lang = text.lang;
    document.title = text.title;
    var field = document.getElementById('field');
    var label = document.createElement('label');
    label.className = 'visually-hidden';
    label.htmlFor = 'input';
    label.textContent = text.label;
    input = document.createElement('input');
    input.id = 'input';
    input.type = fieldType === PASSWORD || (fieldType === SECURITY_CODE && config.maskSecurityCode) ? 'password' : config.legacyInputMode ? 'tel' : 'text';
    input.inputMode = 'numeric';
    input.autocomplete = kind === 'giftcard' ? 'off' : AUTOCOMPLETE[fieldType];
    input.spellcheck = false;
    input.placeholder = text.placeholder;
    input.setAttribute('aria-invalid', 'false');
    input.setAttribute('data-fieldtype', fieldType);
    var error = document.createElement('span');
    error.id = 'error';
    error.className = 'visually-hidden';
    input.setAttribute('aria-describedby', 'error');
    field.appendChild(label);
    field.appendChild(input);
    field.appendChild(error);
    applyStyles(config.iframeUIConfig && config.iframeUIConfig.sfStyles);

    var check = CHECKS[fieldType];
    input.addEventListener('input', function (event) {
      input.dataset.deleting = String(event.inputType === 'deleteContentBackward');
      check(false);
    });
    input.addEventListener('focus', function () {
      post({ action: 'focus', focus: true, numChars: input.value.length });
    });
    input.addEventListener('blur', function () {
      post({ action: 'focus', focus: false, numChars: input.value.length });
      if (!state.valid) check(true);
    });
    input.addEventListener('keydown', function (event) {
      if (event.key === 'Enter') post({ action: 'enterKeyPressed' });
      else if (event.key === 'Tab' && event.shiftKey) post({ action: 'shifttab' });
    });
  }

  // Messages from the parent ----------------------------------------------------------------------

  function onConfig(data) {
    if (typeof data.numKey !== 'number' || !CHECKS[data.fieldType]) return;
    config = data;
    if (typeof data.cvcPolicy === 'string') state.cvcPolicy = data.cvcPolicy;
    if (typeof data.expiryDatePolicy === 'string') state.expiryDatePolicy = data.expiryDatePolicy;
    // A single-brand card (stored card, Bancontact) names its brand in txVariant.
    if (data.txVariant && data.txVariant !== 'card' && data.txVariant !== 'giftcard') state.brand = data.txVariant;
    render();
    post({ action: 'config' });
  }

  /** Later messages: focus requests, brand and policy changes, autofill, validation the parent shows. */
  function onUpdate(data) {
    if (data.numKey !== config.numKey) return;
    if (data.destroy) {
      window.removeEventListener('message', onMessage);
      return;
    }
    if (data.focus === true) input.focus();
    if (data.styleObject) applyStyles(data.styleObject);
    if (typeof data.cvcPolicy === 'string' && config.fieldType === SECURITY_CODE) state.cvcPolicy = data.cvcPolicy;
    if (typeof data.expiryDatePolicy === 'string') state.expiryDatePolicy = data.expiryDatePolicy;
    if (typeof data.brand === 'string' && config.fieldType === SECURITY_CODE) {
      state.brand = data.brand;
      var text = texts(SECURITY_CODE);
      input.placeholder = text.placeholder;
      // A code complete for the old brand (3 digits) may not be for the new one (Amex: 4), and the other way round.
      if (state.valid || input.value) {
        state.sent = '';
        checkSecurityCode(false);
      }
    }
    if (typeof data.brand === 'string' && config.fieldType === CARD_NUMBER) {
      state.binLookup = data.brand === 'reset' ? null : { enableLuhnCheck: data.enableLuhnCheck, panLength: data.panLength };
    }
    if (typeof data.autoComplete === 'string' && config.fieldType !== CARD_NUMBER) {
      input.value = data.autoComplete;
      CHECKS[config.fieldType](true);
    }
    if (data.externalValidation && typeof data.code === 'string') describeError(data.code);
  }

  function onMessage(event) {
    // Only the shop that framed this page, as the `d` of the address names it.
    if (event.source !== window.parent || event.origin !== parentOrigin || typeof event.data !== 'string') return;
    var data;
    try {
      data = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    if (!data || typeof data !== 'object') return;
    if (config === null) onConfig(data);
    else onUpdate(data);
  }

  // Installed now, before the page's load event: the parent sends its config when it sees that event.
  window.addEventListener('message', onMessage);
})();
