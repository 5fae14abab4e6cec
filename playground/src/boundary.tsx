/**
 * An error boundary for the playground: one around each message, one around the whole app. A part that throws
 * while rendering (a server sent something no component expected) replaces only what it was in with a visible
 * alert, instead of React unmounting the whole page.
 */
import { Component, type ErrorInfo, type ReactNode } from "react";

/** Props of `Boundary`. */
export interface BoundaryProps {
  children: ReactNode;
  /** What failed, as the start of a sentence: "This message", "The playground". */
  what: string;
  /**
   * Changes when the content changes (a message object is replaced on every update), so a message that broke
   * mid-stream is tried again once the next update arrives.
   */
  resetKey?: unknown;
}

interface State {
  failed: boolean;
  error: unknown;
}

/** The text the log and the details show for what was thrown (anything can be thrown, `undefined` too). */
function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

/** Renders its children, or an alert saying `what` could not be shown (with the error in a `<details>`). */
export class Boundary extends Component<BoundaryProps, State> {
  override state: State = { failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    // Logged here, once; `main.tsx` keeps React from logging what these boundaries caught a second time.
    console.error(`[playground] ${this.props.what} could not be shown:`, error, info.componentStack ?? "");
  }

  override componentDidUpdate(prev: BoundaryProps) {
    if (this.state.failed && prev.resetKey !== this.props.resetKey)
      this.setState({ failed: false, error: undefined });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="boundary">
        <p>{this.props.what} could not be shown.</p>
        <details>
          <summary>Details</summary>
          {/* Text only: an error message may quote what the server sent. */}
          <pre>{describe(this.state.error)}</pre>
        </details>
      </div>
    );
  }
}
