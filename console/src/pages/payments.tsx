import { useEffect, useState } from 'preact/hooks';
import { consoleApi, errorText, failureText, PAYMENT_STATUSES, type Payment, type PaymentStatus } from '../api.js';
import { usePageTitle, usePaymentFeed, useShell } from '../shell.js';
import { Badge, ErrorMessage, TableRegion, toneOfStatus } from '../components.js';
import { formatAmount, formatTime, statusLabel } from '../format.js';
import { formText, Link, navigate, queryOf, useCurrentLocation } from '../router.js';

interface Filters {
  q: string;
  merchantAccount: string;
  status: string;
  paymentMethod: string;
  /** Dates (YYYY-MM-DD, UTC), both days included. */
  from: string;
  to: string;
}

const FILTER_NAMES = ['q', 'merchantAccount', 'status', 'paymentMethod', 'from', 'to'] as const;

const filtersOf = (query: URLSearchParams): Filters => Object.fromEntries(FILTER_NAMES.map((name) => [name, query.get(name) ?? ''])) as unknown as Filters;

/** The day after a date, at midnight UTC: the API's `to` is excluded, the form's last day included. */
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

/** Whether a payment the live feed reports belongs in the list as filtered. */
function matches(payment: Payment, filters: Filters): boolean {
  if (filters.q && ![payment.pspReference, payment.reference, payment.shopperReference].includes(filters.q)) return false;
  if (filters.merchantAccount && payment.merchantAccount !== filters.merchantAccount) return false;
  if (filters.status && payment.status !== filters.status) return false;
  if (filters.paymentMethod && payment.paymentMethod !== filters.paymentMethod) return false;
  if (filters.from && payment.createdAt < `${filters.from}T00:00:00`) return false;
  if (filters.to && payment.createdAt >= dayAfter(filters.to)) return false;
  return true;
}

const newestFirst = (a: Payment, b: Payment) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.pspReference.localeCompare(a.pspReference));

export function Payments() {
  usePageTitle('Payments');
  const { session, announce } = useShell();
  const location = useCurrentLocation();
  const filters = filtersOf(location.query);
  const filterKey = FILTER_NAMES.map((name) => filters[name]).join('\n');
  const [payments, setPayments] = useState<Payment[] | undefined>();
  const [cursor, setCursor] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [loading, setLoading] = useState(false);
  /** The payments the live feed brought or changed, shown marked until the list is loaded again. */
  const [fresh, setFresh] = useState<Set<string>>(new Set());

  const load = async (after?: string) => {
    setLoading(true);
    setError(undefined);
    try {
      const {
        data,
        error: failure,
        response,
      } = await consoleApi.GET('/payments', {
        params: {
          query: {
            q: filters.q || undefined,
            merchantAccount: filters.merchantAccount || undefined,
            status: (filters.status || undefined) as PaymentStatus | undefined,
            paymentMethod: filters.paymentMethod || undefined,
            from: filters.from ? `${filters.from}T00:00:00Z` : undefined,
            to: filters.to ? dayAfter(filters.to) : undefined,
            cursor: after,
            limit: 25,
          },
        },
      });
      if (!data) return setError(errorText(failure, response));
      setPayments((before) => (after ? [...(before ?? []), ...data.data] : data.data));
      setCursor(data.nextCursor);
      if (!after) setFresh(new Set());
    } catch (cause) {
      setError(failureText(cause));
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => {
    setPayments(undefined);
    void load();
    // The filters are the page's address: a new search is a new address.
  }, [filterKey]);

  usePaymentFeed((payment) => {
    if (!payments || !matches(payment, filters)) return;
    const known = payments.some((p) => p.pspReference === payment.pspReference);
    setPayments((before) => [...(before ?? []).filter((p) => p.pspReference !== payment.pspReference), payment].sort(newestFirst));
    setFresh((before) => new Set(before).add(payment.pspReference));
    announce(
      known
        ? `Payment ${payment.pspReference} is now ${statusLabel(payment.status)}.`
        : `New payment ${payment.pspReference}: ${formatAmount(payment.amount)}, ${statusLabel(payment.status)}.`,
    );
  });

  const search = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    navigate(`/payments${queryOf(Object.fromEntries(FILTER_NAMES.map((name) => [name, formText(form, name)])))}`);
  };

  return (
    <>
      <h1 tabIndex={-1}>Payments</h1>
      <p class="lead">Newest first. New payments and changes appear here as they happen.</p>
      <form class="filters" role="search" aria-label="Payments" onSubmit={search} key={filterKey}>
        <div class="field wide">
          <label for="f-q">pspReference, merchant reference or shopper reference</label>
          <input id="f-q" name="q" type="search" defaultValue={filters.q} />
        </div>
        <div class="field">
          <label for="f-merchant">Merchant account</label>
          <select id="f-merchant" name="merchantAccount">
            <option value="">All</option>
            {session.merchantAccounts.map((account) => (
              <option key={account} value={account} selected={account === filters.merchantAccount}>
                {account}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-status">Status</label>
          <select id="f-status" name="status">
            <option value="">Any</option>
            {PAYMENT_STATUSES.map((status) => (
              <option key={status} value={status} selected={status === filters.status}>
                {statusLabel(status)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="f-method">Payment method</label>
          <input id="f-method" name="paymentMethod" defaultValue={filters.paymentMethod} placeholder="scheme, ideal…" />
        </div>
        <div class="field">
          <label for="f-from">Made from (UTC)</label>
          <input id="f-from" name="from" type="date" defaultValue={filters.from} />
        </div>
        <div class="field">
          <label for="f-to">Made until (UTC, included)</label>
          <input id="f-to" name="to" type="date" defaultValue={filters.to} />
        </div>
        <div class="actions">
          <button type="submit">Search</button>
          <button type="button" class="secondary" onClick={() => navigate('/payments')}>
            Clear
          </button>
        </div>
      </form>
      <ErrorMessage text={error} />
      {payments === undefined && !error && <p>Loading payments…</p>}
      {payments !== undefined && payments.length === 0 && <p>No payment matches.</p>}
      {payments !== undefined && payments.length > 0 && (
        <TableRegion caption={`Payments (${payments.length} shown)`}>
          <thead>
            <tr>
              <th scope="col">pspReference</th>
              <th scope="col" class="number">
                Amount
              </th>
              <th scope="col">Status</th>
              <th scope="col">Made</th>
              <th scope="col">Merchant reference</th>
              <th scope="col">Merchant account</th>
              <th scope="col">Method</th>
            </tr>
          </thead>
          <tbody>
            {payments.map((payment) => (
              <tr key={payment.pspReference} class={fresh.has(payment.pspReference) ? 'fresh' : undefined} data-psp={payment.pspReference}>
                <td>
                  <Link to={`/payments/${encodeURIComponent(payment.pspReference)}`}>{payment.pspReference}</Link>
                </td>
                <td class="number">{formatAmount(payment.amount)}</td>
                <td>
                  <Badge tone={toneOfStatus(payment.status)}>{statusLabel(payment.status)}</Badge>
                </td>
                <td>
                  <time dateTime={payment.createdAt}>{formatTime(payment.createdAt)}</time>
                </td>
                <td>{payment.reference}</td>
                <td data-column="merchantAccount">{payment.merchantAccount}</td>
                <td>{payment.cardSummary ? `${payment.paymentMethod} (${payment.cardSummary})` : payment.paymentMethod}</td>
              </tr>
            ))}
          </tbody>
        </TableRegion>
      )}
      {cursor && (
        <button type="button" class="secondary" disabled={loading} onClick={() => void load(cursor)}>
          {loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </>
  );
}
