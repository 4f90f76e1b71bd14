-- Operational days and their revisions (src/store/day-store.ts). A revision is written once and
-- never changed; days.revision names the current one and moves forward in the same transaction
-- that inserts it.
create table days (
  id uuid primary key,
  -- The APP_ENV of the service that opened it: only keys of that environment see it.
  environment text not null,
  schedule_name text not null,
  window_from_minutes integer not null,
  window_to_minutes integer not null,
  revision integer not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index days_by_environment on days (environment, created_at desc);

create table day_revisions (
  day_id uuid not null references days (id),
  number integer not null,
  kind text not null check (kind in ('open', 'apply', 'movements', 'revert')),
  created_at timestamptz not null,
  -- First 16 hex digits of the SHA-256 of the API key that wrote it (never the key).
  key_id text not null,
  operator text,
  simulation_id uuid,
  option_id text,
  reverted_to integer,
  -- The day's state as what differs from the day as opened (src/domain/day/delta.ts).
  delta jsonb not null,
  primary key (day_id, number)
);

create table day_simulations (
  id uuid primary key,
  day_id uuid not null references days (id),
  revision integer not null,
  created_at timestamptz not null,
  -- The SHA-256 (hex) of the key that ran it (a job's owner in the job store).
  key_id text not null,
  -- The simulation request (src/recovery/pipeline.ts SimulationRequest), and its result in the
  -- domain's terms; null while it runs as a job (the job store has it then).
  request jsonb not null,
  result jsonb,
  job boolean not null default false
);
create index day_simulations_by_day on day_simulations (day_id, created_at desc);
