/** A page of a list. */

export interface Page<T> {
  items: T[];
  total: number;
}
