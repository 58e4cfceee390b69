/**
 * The records the store takes and gives: plain objects, one type per kind of thing, by area in
 * records/. Domain code imports them from here; the store's own modules import their area's file.
 */
export type * from './records/accounts.js';
export type * from './records/checkout.js';
export type * from './records/webhooks.js';
export type * from './records/merchant-settings.js';
export type * from './records/page.js';
export type * from './records/console.js';
