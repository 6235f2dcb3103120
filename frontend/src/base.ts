import { LitElement } from 'lit';

/**
 * LightElement is a LitElement that renders into its own light DOM instead of
 * a shadow root: one global stylesheet (styles.css) styles the whole app,
 * and tests reach rows with plain selectors such as tr[data-site].
 */
export class LightElement extends LitElement {
  protected override createRenderRoot(): HTMLElement {
    return this;
  }
}
