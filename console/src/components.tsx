import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';

/** An error sentence, read out when it appears. */
export function ErrorMessage(props: { text: string | undefined }) {
  if (!props.text) return null;
  return (
    <p class="error" role="alert">
      {props.text}
    </p>
  );
}

/**
 * A table that scrolls sideways on a narrow screen: the scrolling box is focusable and named, so a
 * keyboard can scroll it too.
 */
export function TableRegion(props: { caption: string; children: ComponentChildren; hideCaption?: boolean }) {
  const id = useId();
  return (
    <div class="table-region" role="region" aria-labelledby={id} tabIndex={0}>
      <table>
        <caption id={id} class={props.hideCaption ? 'visually-hidden' : undefined}>
          {props.caption}
        </caption>
        {props.children}
      </table>
    </div>
  );
}

/** A status word with a shape and text, not colour alone. */
export function Badge(props: { tone: 'good' | 'bad' | 'neutral' | 'pending'; children: ComponentChildren }) {
  return <span class={`badge badge-${props.tone}`}>{props.children}</span>;
}

export function toneOfStatus(status: string): 'good' | 'bad' | 'neutral' | 'pending' {
  if (['authorised', 'captured', 'delivered', 'accepted', 'received', 'success'].includes(status)) return 'good';
  if (['refused', 'error', 'failed', 'rejected', 'chargedBack'].includes(status)) return 'bad';
  if (status === 'pending') return 'pending';
  return 'neutral';
}
