// Switchyard's hosting client (src/hosting) pointed at a fake platform, with waits shortened for
// tests: writes (those that notify people too) unpaced, retries after 10 ms, a rate limit's "second" worth 50 ms.
import type { HostingCredentials } from '../../../src/config.ts';
import { HostingPlatform } from '../../../src/hosting/hosting-platform.ts';
import type { ClientTuning } from '../../../src/hosting/octokit-client.ts';
import type { FakePlatform } from './fake-platform.ts';

export const FAST_TUNING: ClientTuning = { writeIntervalMs: 0, notificationIntervalMs: 0, retryBaseMs: 10, rateLimitSecondMs: 50, timeoutMs: 5_000 };

export function hostingClientFor(platform: FakePlatform, credentials: HostingCredentials, tuning: ClientTuning = {}): HostingPlatform {
  return HostingPlatform.connect(platform.url, credentials, { ...FAST_TUNING, ...tuning });
}
