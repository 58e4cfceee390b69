/** Page arithmetic and links of the paginated management lists (Adyen's `pageNumber`/`pageSize`, `itemsTotal`, `pagesTotal` and `_links`). */
export interface PageRequest {
  pageNumber: number;
  pageSize: number;
}

/** The page a list operation's query asks for; the validator has coerced both to numbers. */
export function pageOf(query: { pageNumber?: number; pageSize?: number }, defaultSize = 10): PageRequest {
  return { pageNumber: query.pageNumber ?? 1, pageSize: query.pageSize ?? defaultSize };
}

export function paginated<T>(baseUrl: string, path: string, page: PageRequest, items: T[], total: number) {
  const pagesTotal = Math.max(1, Math.ceil(total / page.pageSize));
  const href = (n: number) => ({ href: `${baseUrl}${path}?pageNumber=${n}&pageSize=${page.pageSize}` });
  return {
    _links: {
      first: href(1),
      last: href(pagesTotal),
      self: href(page.pageNumber),
      ...(page.pageNumber < pagesTotal && { next: href(page.pageNumber + 1) }),
      ...(page.pageNumber > 1 && { prev: href(Math.min(page.pageNumber - 1, pagesTotal)) }),
    },
    data: items,
    itemsTotal: total,
    pagesTotal,
  };
}
