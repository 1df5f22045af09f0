import { MessageOutlined } from '@ant-design/icons';
import { Button, Form, Input, message, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { showSaveError } from '#client/api/form-errors.ts';
import { useSendFeedback } from './feedback-api.ts';

interface FeedbackForm {
  text: string;
}

/** The shell's Feedback button: a dialog that sends what the user writes, with this screen. */
export function FeedbackButton() {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<FeedbackForm>();
  const location = useLocation();
  const send = useSendFeedback();
  const screenPath = `${location.pathname}${location.search}`;

  const close = () => {
    setOpen(false);
    form.resetFields();
  };

  return (
    <>
      <Button icon={<MessageOutlined />} onClick={() => setOpen(true)}>
        Feedback
      </Button>
      <Modal
        title="Send feedback"
        open={open}
        okText="Send"
        confirmLoading={send.isPending}
        onCancel={close}
        onOk={() => form.submit()}
        destroyOnHidden
      >
        <Typography.Paragraph type="secondary">
          Tell us what works, what does not, or what you miss on this screen ({screenPath}). Your
          name and the screen are sent with it.
        </Typography.Paragraph>
        <Form<FeedbackForm>
          form={form}
          layout="vertical"
          onFinish={(values) =>
            send.mutate(
              { text: values.text, screenPath },
              {
                onSuccess: () => {
                  void message.success('Thank you, your feedback was sent.');
                  close();
                },
                onError: (error) => showSaveError(error, form),
              },
            )
          }
        >
          <Form.Item
            name="text"
            label="Your feedback"
            rules={[{ required: true, whitespace: true, message: 'Please describe your feedback' }]}
          >
            <Input.TextArea rows={5} maxLength={4000} showCount />
          </Form.Item>
        </Form>
      </Modal>
    </>
  );
}
