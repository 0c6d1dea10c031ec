import { AppInfoSchema } from '../../model/app.js';
import { none } from './common.js';

// The app itself.
export const appRequests = {
  getAppInfo: { params: none, result: AppInfoSchema },
} as const;
