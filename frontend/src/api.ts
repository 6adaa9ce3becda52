// Websocket calls to the integration's commands, and their errors as text in the user's
// language (the integration's translated exception messages, loaded from Home Assistant).
import type { HassError, HomeAssistant } from "./types";

export const DOMAIN = "context_retrieval";

export function call<T>(hass: HomeAssistant, command: string,
                        payload: Record<string, unknown> = {}): Promise<T> {
  return hass.callWS<T>({ type: `${DOMAIN}/${command}`, ...payload });
}

export function errorText(hass: HomeAssistant, err: unknown, fallback: string): string {
  const error = (err ?? {}) as HassError;
  if (error.translation_key) {
    const translated = hass.localize(
      `component.${error.translation_domain || DOMAIN}.exceptions.${error.translation_key}.message`,
      error.translation_placeholders || {});
    if (translated) return translated;
  }
  return error.message || fallback;
}

export function errorPosition(err: unknown): number | null {
  const position = (err as HassError | undefined)?.translation_placeholders?.position;
  const value = position === undefined ? NaN : Number(position);
  return Number.isFinite(value) && value >= 1 ? value : null;
}

/** Runs the latest request only: answers to older ones are dropped. */
export class Latest {
  private counter = 0;

  async run<T>(work: () => Promise<T>): Promise<{ current: boolean; value: T }> {
    const mine = ++this.counter;
    const value = await work();
    return { current: mine === this.counter, value };
  }

  cancel(): void {
    this.counter++;
  }
}

export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const debounced = (...args: A) => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => { timer = undefined; fn(...args); }, ms);
  };
  debounced.cancel = () => { if (timer !== undefined) clearTimeout(timer); timer = undefined; };
  return debounced;
}
