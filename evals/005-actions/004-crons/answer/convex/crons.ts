import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

crons.interval("purge expired sessions", { minutes: 5 }, internal.sessions.purgeExpired, {});

crons.daily(
  "record active sessions",
  { hourUTC: 4, minuteUTC: 30 },
  internal.sessions.recordActiveCount,
  {},
);

export default crons;
