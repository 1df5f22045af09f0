import { Form, Input, Select } from 'antd';
import type { TAuthType, TUser, TUserWithKey } from '#core/schemas/users.schemas.ts';
import type { Facility } from '#client/api/auth-types.ts';
import { useSession } from '#client/session/use-session.ts';
import { ReasonDialog } from '#client/shared/reason/ReasonDialog.tsx';
import { DepartmentField, PersonNameFields } from '#client/shared/users/person-fields.tsx';
import {
  useCreateUser,
  useFacilityRoleOptions,
  useUpdateUser,
  type UserFormValues,
} from '#client/shared/users/users-api.ts';

interface FormShape {
  firstName: string;
  lastName: string;
  username: string;
  email?: string;
  departmentId?: number | null;
  authType: TAuthType;
  /** Role ids per facility id; a facility with no role is not granted. */
  roles: Record<string, number[] | undefined>;
  reason?: string;
}

/** The roles given in one facility; none means no access to it. */
export function FacilityRolesField({ facility }: { facility: Facility }) {
  const { planId } = useSession();
  const roles = useFacilityRoleOptions(planId, facility.id);
  return (
    <Form.Item label={`Roles in ${facility.name}`} name={['roles', String(facility.id)]}>
      <Select
        mode="multiple"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        placeholder="No access to this facility"
        loading={roles.isPending}
        options={(roles.data ?? []).map((role) => ({ label: role.name, value: role.id }))}
      />
    </Form.Item>
  );
}

const AUTH_TYPE_OPTIONS: { value: TAuthType; label: string }[] = [
  { value: 'local', label: 'Local password' },
  { value: 'ad', label: 'Active Directory' },
  { value: 'sso', label: 'Single sign-on' },
];

function toRequest(values: FormShape): UserFormValues {
  return {
    firstName: values.firstName,
    lastName: values.lastName,
    username: values.username,
    email: values.email?.trim() ? values.email.trim() : null,
    departmentId: values.departmentId ?? null,
    authType: values.authType,
    facilityRoles: grantsOfForm(values.roles),
  };
}

/** The grants the role fields (FacilityRolesField) hold: the facilities given a role. */
export function grantsOfForm(roles: Record<string, number[] | undefined> | undefined) {
  return Object.entries(roles ?? {})
    .filter(([, roleIds]) => roleIds && roleIds.length > 0)
    .map(([facilityId, roleIds]) => ({ facilityId: Number(facilityId), roleIds: roleIds! }));
}

/**
 * The grants the form does not show (facilities the administrator has not) are kept as they are:
 * the server refuses changing grants where one lacks User Modify.
 */
export function withUnshownGrants(
  grants: { facilityId: number; roleIds: number[] }[],
  before: readonly { facilityId: number; roleIds: number[] }[],
  facilities: readonly Facility[],
) {
  const shown = new Set(facilities.map((f) => f.id));
  return [...grants, ...before.filter((g) => !shown.has(g.facilityId))].map(
    ({ facilityId, roleIds }) => ({ facilityId, roleIds }),
  );
}

/** Create a user, or edit one with a reason; the facilities and roles are part of the form. */
export function UserFormModal({
  user,
  facilities,
  onCreated,
  onClose,
}: {
  user: TUser | null;
  facilities: Facility[];
  onCreated: (result: TUserWithKey) => void;
  onClose: () => void;
}) {
  const [form] = Form.useForm<FormShape>();
  const create = useCreateUser();
  const update = useUpdateUser();
  const initial: Partial<FormShape> = user
    ? {
        firstName: user.firstName,
        lastName: user.lastName,
        username: user.username,
        email: user.email ?? '',
        departmentId: user.department?.id ?? null,
        authType: user.authType,
        roles: Object.fromEntries(user.facilityRoles.map((f) => [String(f.facilityId), f.roleIds])),
      }
    : { roles: {}, authType: 'local' };

  async function save(values: FormShape): Promise<void> {
    const request = toRequest(values);
    if (user) {
      await update.mutateAsync({
        id: user.id,
        ...request,
        facilityRoles: withUnshownGrants(request.facilityRoles, user.facilityRoles, facilities),
        reason: values.reason ?? '',
        version: user.version,
      });
    } else {
      onCreated(await create.mutateAsync(request));
    }
  }

  return (
    <ReasonDialog
      form={form}
      askReason={user !== null}
      width={640}
      title={user ? 'Edit User' : 'Add User'}
      okText={user ? 'Save' : 'Create User'}
      initialValues={initial}
      onSubmit={save}
      onClose={onClose}
    >
      <PersonNameFields />
      <Form.Item
        label="Employee ID"
        name="username"
        rules={[{ required: true, whitespace: true, message: 'Please enter the Employee ID' }]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item
        label="Email"
        name="email"
        rules={[{ type: 'email', message: 'Please enter a valid e-mail address' }]}
        extra={
          user
            ? undefined
            : 'With an e-mail the user is invited by mail; without one you get a secret key to hand over.'
        }
      >
        <Input autoComplete="off" />
      </Form.Item>
      <DepartmentField />
      <Form.Item
        label="Sign-in"
        name="authType"
        extra={
          user
            ? 'Changing it drops the local password and ends the sessions of this user.'
            : 'Directory and single sign-on users get no invitation: they have no password here.'
        }
      >
        <Select options={AUTH_TYPE_OPTIONS} />
      </Form.Item>
      {facilities.map((facility) => (
        <FacilityRolesField key={facility.id} facility={facility} />
      ))}
    </ReasonDialog>
  );
}
