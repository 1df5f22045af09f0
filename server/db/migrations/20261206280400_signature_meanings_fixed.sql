-- Issue 28: a signature's meaning was whatever the signer typed. It is now fixed per action and
-- document type (core/schemas/signatures.schemas.ts, meaningOf; 21 CFR 11.50(a)(3)), and the
-- database refuses any other, so that no path (nor SQL as the app role) signs with a meaning of
-- its own. NOT VALID: signatures made before keep the meaning they were signed with.
alter table signatures add constraint signatures_meaning_fixed check (
  (action = 'Submit' and meaning in ('Submitted for review', 'Closure proposed'))
  or (action = 'Review' and meaning = 'Reviewed')
  or (action = 'Approve' and meaning in ('Approved', 'Approve investigation', 'Approve closure'))
  or (action = 'Reject' and meaning in ('Rejected', 'Closure rejected'))
) not valid;
