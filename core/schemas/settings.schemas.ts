import { z } from 'zod';
import { DATE_FORMATS, isValidTimeZone, TIME_FORMATS } from '../datetime/format-date-time.ts';
import { ZReason, ZId } from './common.schemas.ts';
import { MAX_SIGNIFICANT_DIGITS, MIN_SIGNIFICANT_DIGITS } from '../units/format-number.ts';

/**
 * Plan and facility settings: password policy, allowed e-mail domains (plan-wide), date and
 * time display and default units (per facility).
 */

const count = (max: number) => z.number().int('Must be a whole number').min(0).max(max);

/** Composition rules (spec §3 "Password policy settings"); ASVS V6.2: at least 8, 64 allowed. */
export const ZPasswordPolicySettingsInput = z.object({
  minPasswordLength: z
    .number()
    .int('Must be a whole number')
    .min(8, 'A password must be at least 8 characters long')
    .max(64, 'A minimum length above 64 characters is not allowed'),
  minCapital: count(10),
  minNumber: count(10),
  specialCharacters: count(10),
});

export const ZPasswordSecuritySettings = z.object({
  maxLoginAttempts: z.number().int('Must be a whole number').min(1).max(20),
  lockoutMinutes: z.number().int('Must be a whole number').min(1).max(1440),
  /** 0 turns ageing off (README: the 21 CFR 11.300(b) / ASVS V6.2.10 deviation). */
  passwordExpiryDays: z.number().int('Must be a whole number').min(0).max(3650),
  passwordHistoryCount: z.number().int('Must be a whole number').min(0).max(24),
});

export const ZPasswordPolicy = ZPasswordSecuritySettings.extend({
  passwordPolicySettings: ZPasswordPolicySettingsInput,
  version: z.number().int(),
});
export type TPasswordPolicy = z.infer<typeof ZPasswordPolicy>;

export const ZUpdatePasswordPolicyRequest = ZPasswordSecuritySettings.extend({
  passwordPolicySettings: ZPasswordPolicySettingsInput.refine(
    (s) => s.minCapital + s.minNumber + s.specialCharacters <= s.minPasswordLength,
    {
      path: ['minPasswordLength'],
      message: 'Must be at least the number of capitals, numbers and special characters required',
    },
  ),
  version: z.number().int().min(1),
  reason: ZReason,
});
export type TUpdatePasswordPolicyRequest = z.infer<typeof ZUpdatePasswordPolicyRequest>;

/** 'example.com', lower case, without '@'; an empty list allows any domain. */
export const ZDomain = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/^@/, ''))
  .pipe(
    z
      .string()
      .max(253)
      .regex(
        /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
        'Enter a domain such as example.com',
      ),
  );

export const ZAllowedDomains = z.object({
  allowedDomains: z.array(z.string()),
  version: z.number().int(),
});

export const ZUpdateAllowedDomainsRequest = z.object({
  allowedDomains: z.array(ZDomain).max(100),
  version: z.number().int().min(1),
  reason: ZReason,
});

export const ZDateTimeSettings = z.object({
  timezone: z
    .string()
    .trim()
    .min(1, 'Choose a time zone')
    .max(64)
    .refine(isValidTimeZone, 'Not a valid time zone name (e.g. Europe/Dublin)'),
  dateFormat: z.enum(DATE_FORMATS, { error: `One of: ${DATE_FORMATS.join('; ')}` }),
  timeFormat: z.enum(TIME_FORMATS, { error: `One of: ${TIME_FORMATS.join('; ')}` }),
  country: z.string().trim().max(100).nullable(),
  /** Significant digits of every number on screens, PDFs and workbooks (issue 30). */
  significantDigits: z
    .number()
    .int('Must be a whole number')
    .min(MIN_SIGNIFICANT_DIGITS, `At least ${MIN_SIGNIFICANT_DIGITS} significant digits`)
    .max(MAX_SIGNIFICANT_DIGITS, `At most ${MAX_SIGNIFICANT_DIGITS} significant digits`),
});
export type TDateTimeSettings = z.infer<typeof ZDateTimeSettings>;

/** As read: with the facility's optimistic-lock counter, which an edit sends back. */
export const ZDateTimeSettingsRead = ZDateTimeSettings.extend({ version: z.number().int() });
export type TDateTimeSettingsRead = z.infer<typeof ZDateTimeSettingsRead>;

export const ZDateTimeSettingsResponse = z.object({ dateTimeSettings: ZDateTimeSettingsRead });

export const ZUpdateDateTimeSettingsRequest = z.object({
  dateTimeSettings: ZDateTimeSettings.extend({
    country: z.string().trim().max(100).nullish(),
    /** Left out: the facility's digits stay as they are. */
    significantDigits: ZDateTimeSettings.shape.significantDigits.optional(),
  }),
  /** The version the edit was made from: a stale one is 409 and changes nothing. */
  version: z.number().int().min(1),
  reason: ZReason,
});

export const ZDefaultUnit = z.object({
  id: z.number().int(),
  /** The measure, e.g. 'surfaceArea' or 'l3'. */
  shortName: z.string(),
  unit: z.string(),
  /** What the measure is, e.g. 'surface area'. */
  name: z.string(),
  /** Units this measure may be given in (spec §3 "Allowed units per measure"). */
  allowedUnits: z.array(z.string()),
});
export type TDefaultUnit = z.infer<typeof ZDefaultUnit>;

export const ZDefaultUnitsResponse = z.array(ZDefaultUnit);

export const ZUpdateDefaultUnitRequest = z.object({
  unit: z.string().trim().min(1, 'Choose a unit').max(20),
  reason: ZReason,
});

export const ZDefaultUnitParams = z.object({
  plan: ZId,
  facility: ZId,
  id: ZId,
});
