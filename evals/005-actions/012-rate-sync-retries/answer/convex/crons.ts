import { cronJobs } from "convex/server";
import { internal } from "./_generated/api";

const crons = cronJobs();

crons.cron("sync exchange rates", "15 * * * *", internal.rates.sync, { attempt: 1 });

export default crons;
