import { Alert, Modal, Typography } from 'antd';

/** The secret key leaves the server once: the administrator hands it over now or issues a new one. */
export function SecretKeyModal({
  username,
  secretKey,
  onClose,
}: {
  username: string;
  secretKey: string;
  onClose: () => void;
}) {
  return (
    <Modal
      open
      title="Secret Key"
      onOk={onClose}
      onCancel={onClose}
      cancelButtonProps={{ hidden: true }}
      okText="Done"
    >
      <Alert
        type="warning"
        showIcon
        title="This key is shown only once"
        description="Give it to the user in person. They register at /register with their Employee ID and this key, then set their password."
      />
      <p>
        Employee ID: <Typography.Text strong>{username}</Typography.Text>
      </p>
      <Typography.Paragraph copyable={{ text: secretKey }} code data-testid="secret-key">
        {secretKey}
      </Typography.Paragraph>
    </Modal>
  );
}
