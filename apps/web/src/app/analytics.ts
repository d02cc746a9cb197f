/**
 * Analytics behind one adapter (SPEC §1 mentions a third-party service). The default does nothing,
 * so no data leaves the browser unless a deployment configures an adapter at start-up.
 */
export interface AnalyticsAdapter {
  pageView(path: string): void;
}

export const noopAnalytics: AnalyticsAdapter = { pageView: () => {} };

let adapter: AnalyticsAdapter = noopAnalytics;

export function configureAnalytics(next: AnalyticsAdapter): void {
  adapter = next;
}

export function analytics(): AnalyticsAdapter {
  return adapter;
}
