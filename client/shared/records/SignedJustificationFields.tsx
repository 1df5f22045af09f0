import { Form, Input } from 'antd';
import { SignedActFields } from './SignerProofField.tsx';

/**
 * What a signed override asks last (a site PDE, a worst-case product): the justification it is
 * kept with (EMA HBEL guideline §7, EU GMP Annex 15 §10.12), then the signature's meaning and the
 * signer's proof (21 CFR 11.200).
 */
export function SignedJustificationFields({
  meaning,
  required,
}: {
  meaning: string;
  /** The message when the justification is left empty. */
  required: string;
}) {
  return (
    <>
      <Form.Item
        label="Justification"
        name="justification"
        rules={[{ required: true, whitespace: true, message: required }]}
      >
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={5000} />
      </Form.Item>
      <SignedActFields meaning={meaning} />
    </>
  );
}
