import { message } from 'antd';

// Spec §8: only one warning message is shown at a time. A fixed key makes a new warning replace
// the one on screen instead of stacking (a burst of 401s shows 'Session Expired' once).
const WARNING_KEY = 'carryover-warning';

message.config({ maxCount: 1 });

export function openWarning(content: string, durationSeconds: number): void {
  void message.open({ key: WARNING_KEY, type: 'warning', content, duration: durationSeconds });
}

export function closeWarning(): void {
  message.destroy(WARNING_KEY);
}
