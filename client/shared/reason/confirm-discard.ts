import type { FormInstance, ModalFuncProps } from 'antd';

type Confirm = (props: ModalFuncProps) => unknown;

/**
 * Closes a form, asking first when what was typed would be lost: a drawer's or a dialog's Cancel,
 * its close button, Escape and a click beside it all come here. `dirty` adds what the form's
 * fields do not hold (a file chosen for upload).
 */
export function closeAsking(
  confirm: Confirm,
  form: FormInstance,
  onClose: () => void,
  dirty = false,
): void {
  if (!form.isFieldsTouched() && !dirty) {
    onClose();
    return;
  }
  confirm({
    title: 'Discard your changes?',
    content: 'What you entered in this form is not saved.',
    okText: 'Discard',
    okButtonProps: { danger: true },
    cancelText: 'Keep editing',
    onOk: onClose,
  });
}
