-- A report's files are kept in pieces (issue 34): a PDF of every production of a 5,000-product
-- facility is tens of megabytes, and a bytea value is read, written and copied whole (PGlite's
-- WebAssembly memory grows to hold it several times over and never shrinks). The file is
-- written and read a piece at a time, each a row; its size and SHA-256 stay on report_files.
set constraints all immediate;
create table report_file_parts (
  report_file_id integer not null references report_files (id),
  seq integer not null check (seq >= 0),
  bytes bytea not null,
  primary key (report_file_id, seq)
);
-- PDF streams and xlsx files are already compressed: no second try at compressing them.
alter table report_file_parts alter column bytes set storage external;

alter table report_files add column size bigint;
insert into report_file_parts (report_file_id, seq, bytes) select id, 0, bytes from report_files;
update report_files set size = length(bytes);
alter table report_files alter column size set not null, drop column bytes;
set constraints all deferred;
