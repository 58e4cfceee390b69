/** An amount in minor units of a currency (the wire `Amount`). */
export interface Money {
  currency: string;
  value: number;
}
