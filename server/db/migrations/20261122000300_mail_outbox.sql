-- Every mail is written here in the transaction that caused it. With SMTP configured it is
-- delivered after commit and marked sent; without, an administrator reads it in the application.
create table mail_outbox (
  id integer generated always as identity primary key,
  plan_id integer references plans (id),
  to_address text not null,
  subject text not null,
  text_body text not null,
  html_body text not null,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);
create index mail_outbox_pending on mail_outbox (id) where sent_at is null;
