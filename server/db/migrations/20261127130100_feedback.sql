-- Feedback from any screen (spec §7 `feedback`, issue 13): who sent it, from which facility and
-- screen, and what they wrote. Read by administrators; never edited, so no versions are kept.

create table feedback (
  id integer generated always as identity primary key,
  plan_id integer not null references plans (id),
  facility_id integer not null references facilities (id),
  user_id integer not null references users (id),
  screen_path text not null,
  text text not null check (length(text) between 1 and 4000),
  created_at timestamptz not null default now()
);
create index feedback_facility on feedback (facility_id, id);

-- The dashboard reads studies by their frozen protocol's equipment and runs by their end.
create index study_runs_ended on study_runs (facility_id, ended_at) where ended_at is not null;
