import type { Amount } from './api.js';

/** How many digits after the decimal point a currency's minor units have (2 for EUR, 0 for JPY). */
export function exponentOf(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Minor units as a decimal number, without the currency (`1050` EUR → `10.50`). */
export function decimalOf(amount: Amount): string {
  const exponent = exponentOf(amount.currency);
  if (exponent === 0) return String(amount.value);
  const digits = String(amount.value).padStart(exponent + 1, '0');
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** Minor units shown with their currency (`EUR 10.50`). */
export function formatAmount(amount: Amount): string {
  return `${amount.currency} ${decimalOf(amount)}`;
}

/** A decimal typed by a person as minor units, or an explanation of what is wrong with it. */
export function parseDecimal(text: string, currency: string): { value: number } | { error: string } {
  const exponent = exponentOf(currency);
  const trimmed = text.trim().replace(',', '.');
  const pattern = exponent === 0 ? /^\d+$/ : new RegExp(`^\\d+(\\.\\d{1,${exponent}})?$`);
  if (!pattern.test(trimmed)) {
    return { error: exponent === 0 ? `Enter a whole number of ${currency}.` : `Enter an amount like 10.50, with at most ${exponent} decimals.` };
  }
  const [whole = '0', fraction = ''] = trimmed.split('.');
  const value = Number(whole) * 10 ** exponent + Number(fraction.padEnd(exponent, '0') || '0');
  if (!Number.isSafeInteger(value) || value <= 0) return { error: 'Enter an amount above zero.' };
  return { value };
}

/** A time as the server gives it, shown in UTC to the second (the sandbox clock is UTC too). */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** A duration in seconds as days, hours and minutes (`2 days 3 hours`). */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const parts: string[] = [];
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3600],
    ['minute', 60],
  ];
  let left = seconds;
  for (const [name, size] of units) {
    const count = Math.floor(left / size);
    left -= count * size;
    if (count > 0) parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
  }
  return parts.join(' ');
}

/** The status words of the API as a person reads them. */
export function statusLabel(status: string): string {
  return status === 'chargedBack' ? 'charged back' : status;
}
