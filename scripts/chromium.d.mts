/** Types of scripts/chromium.mjs, for the browser tests. */
import type { Browser, LaunchOptions } from 'playwright-core';

export function chromiumDir(): string;
export function chromiumLaunchOptions(): Promise<LaunchOptions & { executablePath: string }>;
export function launchChromium(extraArgs?: string[]): Promise<Browser>;
