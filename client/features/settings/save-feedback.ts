import { notification } from 'antd';

export function showSaved(what: string): void {
  notification.success({ title: 'Saved', description: `${what} saved.` });
}
