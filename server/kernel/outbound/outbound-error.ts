export type OutboundFailure = 'destination' | 'timeout' | 'too-large' | 'network' | 'certificate';

/** Why an outbound call produced no response; `message` can be shown to the caller. */
export class OutboundError extends Error {
  constructor(
    readonly kind: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}
