// The anchor of bench/login-bundle.bench.ts: the least an antd sign-in screen loads, one form of
// a user name, a password and a button on the app's React and antd, built by Vite as the client is.
import { Button, Form, Input } from 'antd';
import { createRoot } from 'react-dom/client';

function LoginForm() {
  return (
    <Form layout="vertical" onFinish={() => undefined}>
      <Form.Item label="Username" name="username" rules={[{ required: true }]}>
        <Input />
      </Form.Item>
      <Form.Item label="Password" name="password" rules={[{ required: true }]}>
        <Input.Password />
      </Form.Item>
      <Button type="primary" htmlType="submit">
        Log In
      </Button>
    </Form>
  );
}

createRoot(document.getElementById('root')!).render(<LoginForm />);
