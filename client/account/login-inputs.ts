// Deep imports on purpose: antd's `Input` drags TextArea, Search and OTP along as static members,
// and the Login screen needs neither. Keeps the sign-in bundle under its 200 kB budget.
export { default as TextInput } from 'antd/es/input/Input';
export { default as PasswordInput } from 'antd/es/input/Password';
